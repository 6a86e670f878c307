import { basename } from 'node:path';
import { LoadscopeError } from '../../../contract/errors.js';
import type { HistogramSet } from '../../../contract/measurement.js';
import type { PhaseResult } from '../../../contract/results.js';
import type { Scenario } from '../../../contract/scenario.js';
import { templateName } from '../../../contract/template-name.js';
import type { RunWriter } from '../../../db/store.js';
import { checkThresholds } from '../../run/thresholds.js';
import { collectK6, targetKey, type Collected } from './collect.js';
import type { TargetAcc } from './k6-accumulator.js';
import { storeRowWrites, TargetSink, writeRows, type RowWrites } from './write-rows.js';

// k6 result files -> stored server runs. Two passes over the files (see collect.ts, write-rows.ts);
// nothing but per-phase histograms and one batch of rows is held in memory.

export const K6_MEASUREMENT_NOTE =
  'k6 measures each request from when it sent it: it has no intended send time, so waiting in front of the load generator (coordinated omission) is not in these times and schedule lag is not measured; arrivals k6 could not start in time are its dropped iterations.';

export interface ImportSummary {
  runId: number;
  requests: number;
  dropped: number;
  skippedLines: number;
  note: string;
}

/** The run's note: what k6 does not measure, what it dropped, where the points came from. */
export function engineNote(c: Collected, labelOf: (acc: TargetAcc) => string): string {
  const drops = c.targets.flatMap((t) => t.ordered().filter((p) => p.dropped > 0).map((p) => `'${p.ref.name}' on ${labelOf(t)}: ${p.dropped}`));
  const parts = [K6_MEASUREMENT_NOTE];
  if (drops.length > 0) parts.push(`Dropped iterations (requests never sent; counted, and among the timeouts): ${drops.join('; ')}.`);
  if (c.files > 1) parts.push(`Merged from ${c.files} result files.`);
  if (c.stats.skipped > 0) parts.push(`${c.stats.skipped} lines that were not k6 points were skipped.`);
  return parts.join(' ');
}

/** Saves one server run's phases (executor and clients from the scenario where known) and its rows. */
function phaseIndexes(acc: TargetAcc): Map<string, number> {
  const out = new Map<string, number>();
  let next = Math.max(-1, ...acc.ordered().map((p) => p.ref.index ?? -1)) + 1;
  for (const p of acc.ordered()) out.set(p.key, p.ref.index ?? next++);
  return out;
}

/** Saves one server run's phases through `save` (the store's, or a generator's guarded write). */
export function savePhases(save: (result: PhaseResult, histograms: HistogramSet) => void, acc: TargetAcc, scenario: Scenario | null, t0Us: number): PhaseResult[] {
  const indexes = phaseIndexes(acc);
  const saved: PhaseResult[] = [];
  for (const p of acc.ordered()) {
    const index = indexes.get(p.key)!;
    const phase = scenario?.phases[index];
    // a Loadscope script's requests are named by their templates: endpoints in template order
    if (phase) p.orderEndpoints(phase.requests.map(templateName));
    const { result, histograms } = p.result(index, phase ? `${phase.executor} (k6)` : 'k6', phase?.clients ?? 1, t0Us);
    save(result, histograms);
    saved.push(result);
  }
  return saved;
}

export function sinkFor(writes: RowWrites, targetId: number, acc: TargetAcc, t0Us?: number): TargetSink {
  return new TargetSink(writes, targetId, acc, phaseIndexes(acc), t0Us);
}

/** The run's length: its first request's start to its last request's end, over every server run (ms). */
export function measuredSpanMs(targets: readonly TargetAcc[]): number {
  const first = Math.min(...targets.map((t) => t.firstStartUs));
  const last = Math.max(...targets.map((t) => t.lastEndUs));
  return Number.isFinite(first) && Number.isFinite(last) ? Math.max(0, Math.round((last - first) / 1000)) : 0;
}

function requestTotals(c: Collected): { requests: number; dropped: number } {
  const phases = c.targets.flatMap((t) => [...t.phases.values()]);
  return { requests: phases.reduce((s, p) => s + p.count - p.dropped, 0), dropped: phases.reduce((s, p) => s + p.dropped, 0) };
}

/** `loadscope import-k6`: one new run (marked as a k6 run) from one or more k6 result files. */
export async function importK6Files(store: RunWriter, files: readonly string[], opts: { scenario?: Scenario; title?: string } = {}): Promise<ImportSummary> {
  if (files.length === 0) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'import-k6 needs at least one k6 result file (--out json or --out csv)');
  const c = await collectK6(files, { instancePerFile: true });
  const { requests, dropped } = requestTotals(c);
  if (requests + dropped === 0) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `no k6 request points in ${files.map((f) => basename(f)).join(', ')} (${c.stats.points} points, ${c.stats.skipped} other lines): write them with k6 run --out json=FILE or --out csv=FILE`);
  }
  const scenario = opts.scenario ?? null;
  const name = scenario?.name ?? c.scenarioName ?? 'k6-import';
  const note = engineNote(c, (t) => t.server);
  const runId = store.createRun({
    scenarioName: name,
    title: opts.title ?? `k6: ${scenario?.title ?? name}`,
    quick: false,
    scenario: scenario ?? { name, engine: 'k6', files: files.map((f) => basename(f)) },
    machine: null,
    engine: 'k6',
    engineNote: note,
  });
  // A failure after this (a file changed between the passes, a full disk) takes the run with it:
  // a failed import stores nothing, rather than a run `show` calls damaged.
  try {
    const cells = [...new Set(c.targets.map((t) => t.cell))].sort((a, b) => a - b);
    store.addCells(runId, cells.map((index) => ({ index, label: cells.length > 1 ? `cell ${index}` : '', params: {} })));
    const sinks = new Map<string, TargetSink>();
    c.targets.forEach((acc) => {
      const serverIndex = scenario?.servers.findIndex((s) => (s.label ?? s.architecture) === acc.server) ?? -1;
      const architecture = serverIndex >= 0 ? scenario!.servers[serverIndex]!.architecture : 'k6';
      const targetId = store.createTarget({ runId, cellIndex: acc.cell, serverIndex: Math.max(0, serverIndex), label: acc.server, architecture, status: 'running' });
      const sink = sinkFor(storeRowWrites(store, targetId), targetId, acc);
      const phases = savePhases((result, histograms) => store.savePhase(targetId, result, histograms), acc, scenario, sink.t0Us);
      // the scenario's thresholds, judged by Loadscope on the merged phases as a k6 run's are (never by each instance)
      if (scenario !== null) {
        const target = { targetId, cellIndex: acc.cell, server: acc.server, architecture };
        for (const phase of phases) {
          const results = checkThresholds(scenario, target, phase);
          if (results.length > 0) store.saveThresholds(targetId, results);
        }
      }
      if (acc.instances.size > 0) store.setTargetInstances(targetId, acc.instances.facts(sink.t0Us));
      sinks.set(targetKey(acc.cell, acc.server), sink);
      const durationMs = Number.isFinite(acc.lastEndUs) ? Math.round((acc.lastEndUs - acc.firstStartUs) / 1000) : 0;
      const startedAt = Number.isFinite(acc.firstStartUs) ? new Date(acc.firstStartUs / 1000).toISOString() : null;
      store.updateTarget(targetId, { status: 'completed', startedAt, durationMs });
    });
    await writeRows(files, sinks);
    // the run lasted as long as its points span, not as long as reading them took
    store.finishRun(runId, 'completed', null, undefined, measuredSpanMs(c.targets));
  } catch (err) {
    try {
      store.deleteRun(runId);
    } catch {
      // the store itself failed (the reason is err); the run stays, marked by the store's own checks
    }
    throw err;
  }
  return { runId, requests, dropped, skippedLines: c.stats.skipped, note };
}
