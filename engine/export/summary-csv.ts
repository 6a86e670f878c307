import { ERROR_KINDS, phaseEndpoints, type StreamFigures } from '../../contract/results.js';
import { LATENCIES, STAT_KEYS, type PhaseRow } from '../../contract/report/run-report.js';
import { stats5 } from '../../contract/report/stats5.js';
import { STREAM_SAMPLES } from '../../contract/stream-names.js';
import type { PhasePair } from '../../contract/report/compare-report.js';
import type { RunSummary } from '../../contract/results.js';
import { CSV_EOL, csvRow } from './csv-cell.js';
import { runNameCell, runNoteCell } from './csv-run-columns.js';

// The per-phase summary of a run (`export --csv FILE --summary`) and the paired table of a
// comparison, as CSV: one row per server run and phase, units in the column names. A matrix cell
// is a column of its own (its full key=value text), never folded into the server column.
// Precision, decided here only: times in ms to 3 decimals (a microsecond, the timer's resolution
// is finer but no reading is that exact), rates in req/s to 2; counts are whole already.

export const MS_DECIMALS = 3;
export const RATE_DECIMALS = 2;

/** A figure rounded to `decimals` (592.7713210000074 -> 592.771); null stays null (an empty cell). */
export function rounded(value: number | null | undefined, decimals: number): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Number(value.toFixed(decimals));
}
const ms = (v: number | null | undefined) => rounded(v, MS_DECIMALS);

// a phase's (or an endpoint's) streams (issue 41): empty where it opened none
const STREAM_COLUMNS = ['streams', 'messages', 'messages_rate_per_s', 'messages_bytes', ...STREAM_SAMPLES.flatMap((n) => STAT_KEYS.map((s) => `${n}_${s}_ms`))];

/** The stream columns of a phase or an endpoint, in STREAM_COLUMNS' order. */
function streamCells(s: StreamFigures | undefined): (number | null)[] {
  if (s === undefined) return STREAM_COLUMNS.map(() => null);
  return [s.streams, s.messages, rounded(s.rate, RATE_DECIMALS), s.bytes, ...STREAM_SAMPLES.flatMap((n) => STAT_KEYS.map((k) => ms(stats5(s[n])?.[k])))];
}

export const SUMMARY_HEADER = [
  'run_id', 'server', 'label', 'cell', 'phase', 'endpoint', 'executor', 'clients', 'duration_ms', 'requests', 'ok', 'errors',
  ...ERROR_KINDS.map((k) => `errors_${k}`),
  'throughput_rps',
  ...LATENCIES.flatMap((l) => STAT_KEYS.map((s) => `${l.csv}_${s}_ms`)),
  ...STREAM_COLUMNS,
  'run_name', 'run_note',
];

/**
 * One row per server run and phase (endpoint empty), each followed by a row per endpoint when the
 * phase has more than one (contract/endpoints.ts): the same columns over only that endpoint's requests.
 * The stream columns are read from the run's phases and endpoints (`targets`), matched by target, phase and endpoint name.
 */
export function summaryCsv(run: Pick<RunSummary, 'id' | 'name' | 'note' | 'targets'>, rows: readonly PhaseRow[]): string {
  const runId = run.id;
  const phaseOf = (r: PhaseRow) => run.targets.find((t) => t.id === r.targetId)?.phases.find((p) => p.index === r.phaseIndex);
  const endpointStream = (r: PhaseRow, endpoint: string) => {
    const p = phaseOf(r);
    return p === undefined ? undefined : phaseEndpoints(p).find((e) => e.name === endpoint)?.stream;
  };
  const named = [runNameCell(run), runNoteCell(run)];
  const lines = [SUMMARY_HEADER.join(',')];
  const figures = (r: Pick<PhaseRow, 'count' | 'ok' | 'errorsTotal' | 'errors' | 'throughput' | 'latency'>) => [
    r.count, r.ok, r.errorsTotal,
    ...ERROR_KINDS.map((k) => r.errors[k]),
    rounded(r.throughput, RATE_DECIMALS),
    ...LATENCIES.flatMap((l) => STAT_KEYS.map((s) => ms(r.latency[l.key]?.[s]))),
  ];
  for (const r of rows) {
    const head = (endpoint: string) => [runId, r.label, r.label, r.cell, r.phase, endpoint, r.executor, r.clients, ms(r.durationMs)];
    lines.push(csvRow([...head(''), ...figures(r), ...streamCells(phaseOf(r)?.stream), ...named]));
    for (const e of r.endpoints) lines.push(csvRow([...head(e.endpoint), ...figures(e), ...streamCells(endpointStream(r, e.endpoint)), ...named]));
  }
  return lines.join(CSV_EOL) + CSV_EOL;
}

/** The unit a compare metric's label names ('total p99 (ms)' -> ms), '' for counts. */
const unitOf = (label: string): string => /\(([^)]+)\)$/.exec(label)?.[1] ?? '';
const metricColumn = (key: string, unit: string) => `${key.replace(/\./g, '_')}${unit === 'ms' ? '_ms' : unit === 'req/s' ? '_rps' : ''}`;

/**
 * The compare view's paired table: one row per paired phase (or endpoint: its column) and metric (the server's label and its
 * matrix cell's full key=value text in columns of their own); a value column per run, and per later run its ratio to the first with the ratio's 95 % bootstrap interval (empty where the
 * engine could not tell it from noise for lack of data) and what Compare says of it (contract/compare.ts judgeInterval:
 * beyond, within, too short, too variable; empty for a figure without an interval).
 */
export function compareCsv(runs: readonly Pick<RunSummary, 'id' | 'name'>[], pairs: readonly PhasePair[]): string {
  const first = runs[0]!.id;
  const later = runs.slice(1);
  const header = ['server', 'cell', 'phase', 'endpoint', 'metric', 'unit', ...runs.map((r) => `run_${r.id}`), ...later.flatMap((r) => [`ratio_${r.id}_to_${first}`, `ratio_${r.id}_ci95_low`, `ratio_${r.id}_ci95_high`, `ratio_${r.id}_judgement`]), ...runs.map((r) => `run_${r.id}_name`)];
  const names = runs.map(runNameCell);
  const lines = [header.join(',')];
  for (const p of pairs) {
    for (const m of p.metrics) {
      const unit = unitOf(m.label);
      const value = (v: number | null) => (unit === 'ms' ? ms(v) : unit === 'req/s' ? rounded(v, RATE_DECIMALS) : v);
      lines.push(csvRow([p.label, p.cell, p.phase, p.endpoint ?? '', metricColumn(m.key, unit), unit, ...m.values.map(value), ...later.flatMap((_, k) => [m.ratios[k + 1], m.intervals[k + 1]?.low, m.intervals[k + 1]?.high, m.judgements[k + 1]]), ...names]));
    }
  }
  return lines.join(CSV_EOL) + CSV_EOL;
}
