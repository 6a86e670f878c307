import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LoadscopeError } from '../contract/errors.js';
import type { RunSummary } from '../contract/results.js';
import type { Engine } from '../engine/engine.js';
import { runExport } from '../engine/export/export-run.js';
import { machineInfo } from '../engine/machine-info.js';
import { FULL_MARKER, reproductionDoc, type ReproducedScenario } from './reproduction-doc.js';
import { seedScenario, selectSeedScenarios } from './seeds.js';
import { cellLabel } from './winners.js';

// `loadscope reproduce`: run every seed scenario (or find its latest stored run), then write the
// reproduction document. Runs one scenario at a time through the engine, so each is stored like any
// other run and can be shown, compared or exported later.

export interface ReproduceProgress {
  scenario: string;
  /** 1-based position among the selected scenarios */
  index: number;
  count: number;
  runId: number | null;
  /** the matrix cell being run, e.g. "count=10" (1-based index and total) */
  cell: { index: number; count: number; label: string } | null;
  server: string | null;
  phase: string | null;
  /** since this scenario started */
  scenarioElapsedMs: number;
  /** since the reproduction started */
  totalElapsedMs: number;
  /** set when the scenario has ended */
  status: RunSummary['status'] | null;
  /** the catalog's estimate for a full-size run (null for quick runs) */
  expectedMs: number | null;
}

export interface ReproduceOptions {
  quick: boolean;
  /** seed ids or scenario names ('000', 'seed-003-threads'); absent: all */
  only?: readonly string[];
  /** don't run: use the latest stored run of each scenario (same profile) */
  fromDb: boolean;
  /** where the document goes */
  out: string;
  /** replace a full-size document with a quick one */
  force?: boolean;
  /** run each scenario this many times, stored as one group; the document states each ratio's interval (default 1) */
  repeat?: number;
  command: string;
  onProgress?: (p: ReproduceProgress) => void;
  signal?: AbortSignal;
}

export interface ReproduceResult {
  out: string;
  scenarios: ReproducedScenario[];
  /** false where cancelled: no document is written then */
  written: boolean;
}

/** A quick document must not silently replace a full-size one (hours of runs). */
function guardFullDoc(opts: ReproduceOptions): void {
  if (!opts.quick || opts.force || !existsSync(opts.out)) return;
  if (readFileSync(opts.out, 'utf8').startsWith(FULL_MARKER)) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${opts.out} holds a full-size reproduction; write the quick one elsewhere (--out) or pass --force`);
  }
}

/** The latest finished run of the scenario with the same profile; cancelled and interrupted runs don't count. */
async function latestStored(engine: Engine, name: string, quick: boolean): Promise<ReproducedScenario> {
  const list = await engine.handlers['runs:list']({ text: name, limit: 10_000 });
  const found = list.find((r) => r.scenarioName === name && r.quick === quick && (r.status === 'completed' || r.status === 'failed'));
  if (!found) return { name, run: null, error: `no stored ${quick ? 'quick' : 'full-size'} run of ${name} in this database` };
  // the latest run's whole group, where it was one of repeated runs
  const group = found.group;
  if (group !== null && group.size > 1) {
    const members = list.filter((r) => r.group?.id === group.id).sort((a, b) => a.group!.index - b.group!.index);
    const repeats = await Promise.all(members.map((m) => engine.handlers['runs:get']({ runId: m.id })));
    return { name, run: repeats[0]!, repeats };
  }
  return { name, run: await engine.handlers['runs:get']({ runId: found.id }) };
}

async function runOne(engine: Engine, name: string, at: { index: number; count: number; startedMs: number }, opts: ReproduceOptions): Promise<ReproducedScenario> {
  const scenarioStart = performance.now();
  const state: ReproduceProgress = {
    scenario: name,
    index: at.index,
    count: at.count,
    runId: null,
    cell: null,
    server: null,
    phase: null,
    scenarioElapsedMs: 0,
    totalElapsedMs: performance.now() - at.startedMs,
    status: null,
    expectedMs: opts.quick ? null : (seedScenario(name)?.fullMinutes ?? 0) * 60_000 || null,
  };
  const report = () => {
    state.scenarioElapsedMs = performance.now() - scenarioStart;
    state.totalElapsedMs = performance.now() - at.startedMs;
    opts.onProgress?.({ ...state });
  };
  report();
  let cells: Array<{ index: number; label: string }> = [];
  const unsubscribe = engine.subscribe((e) => {
    if (e.event === 'run:started') {
      cells = e.payload.cells.map((c) => ({ index: c.index, label: cellLabel(c.params) }));
    } else if (e.event === 'run:target' && e.payload.status === 'running') {
      const i = cells.findIndex((c) => c.index === e.payload.cellIndex);
      state.cell = i < 0 ? null : { index: i + 1, count: cells.length, label: cells[i]!.label };
      state.server = e.payload.label;
      state.phase = null;
      report();
    } else if (e.event === 'run:phase' && e.payload.state === 'started') {
      state.phase = e.payload.name;
      report();
    } else if (e.event === 'run:progress') {
      report();
    }
  });
  const cancel = () => {
    if (state.runId === null) return;
    const reason = typeof opts.signal?.reason === 'string' ? opts.signal.reason : undefined;
    void engine.handlers['runs:cancel']({ runId: state.runId, reason });
  };
  opts.signal?.addEventListener('abort', cancel);
  try {
    const { runId } = await engine.handlers['runs:start']({ scenario: { name }, quick: opts.quick, set: {} });
    state.runId = runId;
    if (opts.signal?.aborted) cancel();
    await engine.waitForRun(runId);
    const run = await engine.handlers['runs:get']({ runId });
    state.status = run.status;
    report();
    return { name, run };
  } catch (err) {
    return { name, run: null, error: err instanceof Error ? err.message : String(err) };
  } finally {
    opts.signal?.removeEventListener('abort', cancel);
    unsubscribe();
  }
}

/** `repeat` runs of one scenario, one after another, grouped; a run that does not complete ends the repeats. */
async function runRepeated(engine: Engine, name: string, at: { index: number; count: number; startedMs: number }, opts: ReproduceOptions): Promise<ReproducedScenario> {
  const repeat = opts.repeat ?? 1;
  const runs: RunSummary[] = [];
  let first: ReproducedScenario | null = null;
  for (let k = 0; k < repeat && !opts.signal?.aborted; k++) {
    const one = await runOne(engine, name, at, opts);
    first ??= one;
    if (one.run === null) break;
    runs.push(one.run);
    if (one.run.status !== 'completed') break;
  }
  if (runs.length > 1) {
    await engine.handlers['runs:group']({ runIds: runs.map((r) => r.id) });
    const grouped = await Promise.all(runs.map((r) => engine.handlers['runs:get']({ runId: r.id })));
    return { name, run: grouped[0]!, repeats: grouped };
  }
  return first ?? { name, run: null, error: 'cancelled before it started' };
}

/**
 * Each scenario's run as a self-contained HTML report next to the document (reports/<scenario>.html),
 * linked from its section, so a reader can open every phase and chart of the run the figures came from.
 */
async function writeReports(engine: Engine, scenarios: ReproducedScenario[], docDir: string): Promise<void> {
  mkdirSync(join(docDir, 'reports'), { recursive: true });
  for (const s of scenarios) {
    if (s.run === null) continue;
    const report = `reports/${s.name}.html`;
    writeFileSync(join(docDir, report), (await runExport(engine.store, s.run.id, 'html')).bytes);
    s.report = report;
  }
}

export async function reproduce(engine: Engine, opts: ReproduceOptions): Promise<ReproduceResult> {
  const names = selectSeedScenarios(opts.only);
  if (names.length === 0) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--only ${(opts.only ?? []).join(',')} matches no seed scenario (seed ids 000..004 or scenario names such as seed-000-image)`);
  }
  guardFullDoc(opts);
  const startedMs = performance.now();
  const scenarios: ReproducedScenario[] = [];
  for (const [i, name] of names.entries()) {
    if (opts.signal?.aborted) break;
    scenarios.push(opts.fromDb ? await latestStored(engine, name, opts.quick) : await runRepeated(engine, name, { index: i + 1, count: names.length, startedMs }, opts));
  }
  if (opts.signal?.aborted) return { out: opts.out, scenarios, written: false };
  mkdirSync(dirname(opts.out), { recursive: true });
  await writeReports(engine, scenarios, dirname(opts.out));
  const text = reproductionDoc({ quick: opts.quick, command: opts.command, generatedAt: new Date().toISOString(), scenarios, machine: machineInfo() });
  writeFileSync(opts.out, text);
  return { out: opts.out, scenarios, written: true };
}
