import { ERROR_KINDS } from '../../contract/results.js';
import { LATENCIES, STAT_KEYS, type PhaseRow } from '../../contract/report/run-report.js';
import type { PhasePair } from '../../contract/report/compare-report.js';
import type { RunSummary } from '../../contract/results.js';
import { CSV_EOL, csvRow } from './csv-cell.js';

// The per-phase summary of a run (`export --csv FILE --summary`) and the paired table of a
// comparison, as CSV: one row per server run and phase, units in the column names.

export const SUMMARY_HEADER = [
  'run_id', 'server', 'label', 'cell', 'phase', 'executor', 'clients', 'duration_ms', 'requests', 'ok', 'errors',
  ...ERROR_KINDS.map((k) => `errors_${k}`),
  'throughput_rps',
  ...LATENCIES.flatMap((l) => STAT_KEYS.map((s) => `${l.csv}_${s}_ms`)),
];

export function summaryCsv(runId: number, rows: readonly PhaseRow[]): string {
  const lines = [SUMMARY_HEADER.join(',')];
  for (const r of rows) {
    lines.push(
      csvRow([
        runId, r.server, r.label, r.cell, r.phase, r.executor, r.clients, r.durationMs, r.count, r.ok, r.errorsTotal,
        ...ERROR_KINDS.map((k) => r.errors[k]),
        r.throughput,
        ...LATENCIES.flatMap((l) => STAT_KEYS.map((s) => r.latency[l.key]?.[s] ?? null)),
      ]),
    );
  }
  return lines.join(CSV_EOL) + CSV_EOL;
}

const unitSuffix = (unit: string) => (unit === 'ms' ? '_ms' : unit === 'req/s' ? '_rps' : '');
const snake = (name: string) => name.replace(/ /g, '_');

/** One row per paired phase and metric; a value column per run, a ratio column per later run (run / first). */
export function compareCsv(runs: readonly Pick<RunSummary, 'id'>[], pairs: readonly PhasePair[]): string {
  const header = ['server', 'cell', 'phase', 'metric', 'unit', ...runs.map((r) => `run_${r.id}`), ...runs.slice(1).map((r) => `ratio_${r.id}_to_${runs[0]!.id}`)];
  const lines = [header.join(',')];
  for (const p of pairs) {
    for (const m of p.metrics) {
      lines.push(csvRow([p.server, p.cell, p.phase, `${snake(m.name)}${unitSuffix(m.unit)}`, m.unit, ...m.values, ...m.ratios.slice(1)]));
    }
  }
  return lines.join(CSV_EOL) + CSV_EOL;
}
