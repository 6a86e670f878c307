import { requestMeasured } from '../../contract/engine-figures.js';
import { deriveTimes } from '../../contract/measurement.js';
import { phaseEndpoints, type RunSummary } from '../../contract/results.js';
import type { RunReader } from '../../db/store.js';
import { csvRow } from './csv-cell.js';
import { runNameCell } from './csv-run-columns.js';

/** A text cell, quoted and formula-neutralised (the one implementation: csv-cell.ts). */
export { csvText as quote } from './csv-cell.js';

// One row per request; every time in ms with microsecond precision, derived as everywhere else
// (contract/measurement.ts: total, wait, processing, server wait, lag, ttfb, transfer). wait and
// processing are empty without Server-Timing: unknown, never wait = total. endpoint: the request's
// template by name (empty for runs stored before endpoints were measured).
export const CSV_HEADER = [
  'run_id', 'server', 'cell', 'phase', 'endpoint', 'client', 'intended_ms', 'sent_ms', 'first_byte_ms', 'done_ms',
  'total_ms', 'wait_ms', 'processing_ms', 'server_wait_ms', 'lag_ms', 'ttfb_ms', 'transfer_ms', 'status', 'bytes', 'error', 'run_name',
].join(',');

const ms = (us: number | null): number | null => (us === null ? null : Number((us / 1000).toFixed(3)));

/** The CSV of a run's raw requests, line by line, so a large run is never held in memory at once. */
export function* csvLines(store: RunReader, run: RunSummary): Generator<string> {
  yield CSV_HEADER;
  const name = runNameCell(run);
  const targets = new Map(run.targets.map((t) => [t.id, t]));
  const cells = new Map(run.cells.map((c) => [c.index, c.label]));
  // endpoint names by target, phase and template index
  const endpoints = new Map(run.targets.flatMap((t) => t.phases.flatMap((p) => phaseEndpoints(p).map((e) => [`${t.id} ${p.index} ${e.index}`, e.name] as const))));
  for (const row of store.iterateRequests(run.id)) {
    const target = targets.get(row.targetId);
    const phase = target?.phases.find((p) => p.index === row.phaseIdx);
    const t = deriveTimes(row);
    // empty where the run's engine did not measure it (k6: no intended time, so no lag)
    const has = requestMeasured(run.engine, t.processingUs);
    yield csvRow([
      run.id,
      target?.label ?? String(row.targetId),
      cells.get(target?.cellIndex ?? -1) ?? '',
      phase?.name ?? String(row.phaseIdx),
      endpoints.get(`${row.targetId} ${row.phaseIdx} ${row.templateIdx}`) ?? '',
      row.clientIdx,
      has.intended ? ms(row.intendedUs) : null, ms(row.sentUs), ms(row.firstByteUs), ms(row.doneUs),
      ms(t.totalUs), has.wait ? ms(t.waitUs) : null, ms(t.processingUs), ms(t.serverWaitUs), has.lag ? ms(t.lagUs) : null, ms(t.ttfbUs), ms(t.transferUs),
      row.status, row.bytes, row.error, name,
    ]);
  }
}
