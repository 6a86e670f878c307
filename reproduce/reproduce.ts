import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
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
  /** replace a document (and its reports) that already exist */
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

/** Writes a file that must be new unless forced: one that appeared while the runs ran is not replaced either. */
function writeNew(path: string, data: string | Uint8Array, force: boolean | undefined): void {
  try {
    writeFileSync(path, data, { flag: force ? 'w' : 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${path} appeared while the runs ran and is not replaced; the runs are stored: \`loadscope reproduce --from-db --out FILE\` writes the document from them`);
  }
}

/**
 * A document's run reports go in a folder named after it (q.md -> q-reports/), so two documents
 * written into one folder never share, or replace, each other's reports.
 */
export function reportsDir(out: string): string {
  return join(dirname(out), `${basename(out, extname(out))}-reports`);
}

/** Does the file begin with the full-size marker? Reads only the marker's length (the file may be anything). */
function holdsFullDoc(path: string): boolean {
  let fd: number | undefined;
  try {
    // a FIFO would block the open: only a regular file is read
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
    const head = Buffer.alloc(FULL_MARKER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString('utf8') === FULL_MARKER;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Nothing is replaced without --force: not the document, not one of its reports. Checked before
 * anything runs, so a refusal costs nothing rather than a finished hour of runs.
 */
function refuseReplacing(opts: ReproduceOptions, names: readonly string[]): void {
  if (opts.force) return;
  const taken = [opts.out, ...names.map((name) => join(reportsDir(opts.out), `${name}.html`))].filter((path) => existsSync(path));
  if (taken.length === 0) return;
  const what = taken[0] === opts.out && holdsFullDoc(opts.out) ? ' and holds a full-size reproduction' : '';
  const more = taken.length > 1 ? ` (with ${taken.length - 1} more of its files)` : '';
  throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${taken[0]} exists${what}${more}; write elsewhere with --out FILE, or replace it with --force`);
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
 * Each scenario's run as a self-contained HTML report beside the document (<doc>-reports/<scenario>.html),
 * linked from its section, so a reader can open every phase and chart of the run the figures came from.
 */
async function writeReports(engine: Engine, scenarios: ReproducedScenario[], opts: ReproduceOptions): Promise<void> {
  const dir = reportsDir(opts.out);
  mkdirSync(dir, { recursive: true });
  for (const s of scenarios) {
    if (s.run === null) continue;
    writeNew(join(dir, `${s.name}.html`), (await runExport(engine.store, s.run.id, 'html')).bytes, opts.force);
    s.report = `${basename(dir)}/${s.name}.html`;
  }
}

export async function reproduce(engine: Engine, opts: ReproduceOptions): Promise<ReproduceResult> {
  const names = selectSeedScenarios(opts.only);
  if (names.length === 0) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--only ${(opts.only ?? []).join(',')} matches no seed scenario (seed ids 000..004 or scenario names such as seed-000-image)`);
  }
  refuseReplacing(opts, names);
  const startedMs = performance.now();
  const scenarios: ReproducedScenario[] = [];
  for (const [i, name] of names.entries()) {
    if (opts.signal?.aborted) break;
    scenarios.push(opts.fromDb ? await latestStored(engine, name, opts.quick) : await runRepeated(engine, name, { index: i + 1, count: names.length, startedMs }, opts));
  }
  if (opts.signal?.aborted) return { out: opts.out, scenarios, written: false };
  // each run's diagnosis, from the stored run as `show` reads it: made or found (--from-db) alike
  for (const s of scenarios) if (s.run !== null) s.diagnosis = await engine.handlers['runs:diagnosis']({ runId: s.run.id });
  mkdirSync(dirname(opts.out), { recursive: true });
  await writeReports(engine, scenarios, opts);
  const text = reproductionDoc({ quick: opts.quick, command: opts.command, generatedAt: new Date().toISOString(), scenarios, machine: machineInfo() });
  writeNew(opts.out, text, opts.force);
  return { out: opts.out, scenarios, written: true };
}
