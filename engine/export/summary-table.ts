import type { ServerCapacity } from '../../contract/capacity/run-capacity.js';
import { bracketText, sustainableText } from '../../contract/capacity/search.js';
import { uslTrusted } from '../../contract/capacity/usl.js';
import { enUsNumber } from '../../contract/number-text.js';
import type { PhaseRow } from '../../contract/report/run-report.js';
import { STREAM_COLUMNS, type StreamColumn, type StreamRow } from '../../contract/report/stream-table.js';

// The short tables of the one-page PNG (the HTML report has the full ones): per phase, a run's
// streams (issue 41), and a capacity search's per-server figures, as the HTML's capacity table gives them.

// thousands separated, as the screen's and the HTML's tables and the mean bars write them
const f = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : enUsNumber(v, digits, digits));
const sig = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : Number.isFinite(v) ? Number(v.toPrecision(3)).toLocaleString('en-US') : '∞');

export interface Column {
  title: string;
  width: number;
  /** numbers are right-aligned */
  align: 'left' | 'right';
}

// 1,560 px in all: the one-page PNG is 1,600 wide. Transfer is in the HTML and CSVs, not here.
export const SUMMARY_COLUMNS: readonly Column[] = [
  { title: 'server', width: 230, align: 'left' },
  { title: 'phase', width: 150, align: 'left' },
  { title: 'requests', width: 90, align: 'right' },
  { title: 'errors', width: 70, align: 'right' },
  { title: 'req/s', width: 90, align: 'right' },
  { title: 'total p50 (ms)', width: 130, align: 'right' },
  { title: 'total p99 (ms)', width: 130, align: 'right' },
  { title: 'wait mean (ms)', width: 150, align: 'right' },
  { title: 'processing mean (ms)', width: 190, align: 'right' },
  { title: 'client queue p99 (ms)', width: 200, align: 'right' },
  { title: 'ttfb p99 (ms)', width: 130, align: 'right' },
];

type Figures = Pick<PhaseRow, 'count' | 'errorsTotal' | 'throughput' | 'latency'>;

const figureCells = (r: Figures): string[] => [
  r.count.toLocaleString('en-US'), r.errorsTotal.toLocaleString('en-US'), f(r.throughput, 1),
  f(r.latency.total?.p50), f(r.latency.total?.p99), f(r.latency.wait?.mean), f(r.latency.processing?.mean), f(r.latency.lag?.p99), f(r.latency.ttfb?.p99),
];

export function summaryCells(r: PhaseRow): string[] {
  return [r.server, r.phase, ...figureCells(r)];
}

/** The summary table's lines: each phase, then its endpoints (when it has more than one) under it, by name. */
export function summaryLines(rows: readonly PhaseRow[]): string[][] {
  return rows.flatMap((r) => [summaryCells(r), ...r.endpoints.map((e) => ['', `↳ ${e.endpoint}`, ...figureCells(e)])]);
}

export function capacityColumns(unit: string): Column[] {
  return [
    { title: 'server', width: 340, align: 'left' },
    { title: `sustainable (${unit})`, width: 180, align: 'right' },
    { title: `bracket (${unit})`, width: 190, align: 'right' },
    { title: 'limited by', width: 170, align: 'left' },
    { title: `knee (${unit})`, width: 110, align: 'right' },
    { title: 'search ended', width: 200, align: 'left' },
    { title: 'USL peak (req/s)', width: 150, align: 'right' },
    { title: 'USL R²', width: 90, align: 'right' },
  ];
}

export function capacityCells({ name, capacity: { result, steps, ended, usl } }: ServerCapacity): string[] {
  const knee = result.kneeStep === null ? null : (steps[result.kneeStep]?.offered ?? null);
  // the cells the HTML, CLI and workbench show ('≥ 200', 'at least 200'); a poor fit predicts no peak
  const peak = usl === null ? '-' : uslTrusted(usl) ? sig(usl.peakX) : 'poor fit';
  return [name, sustainableText(result, sig), bracketText(result, sig), result.limitedBy, sig(knee), ended, peak, usl ? sig(usl.r2) : '-'];
}

/** The streams table's figures on the page (the HTML has every one of contract/report/stream-table.ts). */
const STREAM_PNG: readonly { figure: StreamColumn['figure']; title: string; width: number; digits: number }[] = [
  { figure: 'streams.count', title: 'streams', width: 90, digits: 0 },
  { figure: 'messages.count', title: 'messages', width: 110, digits: 0 },
  { figure: 'messages.rate', title: 'messages/s', width: 120, digits: 1 },
  { figure: 'messages.bytes', title: 'bytes', width: 120, digits: 0 },
  { figure: 'ttfe.p50', title: 'ttfe p50 (ms)', width: 130, digits: 2 },
  { figure: 'ttfe.p99', title: 'ttfe p99 (ms)', width: 130, digits: 2 },
  { figure: 'gap.p99', title: 'gap p99 (ms)', width: 130, digits: 2 },
  { figure: 'gap.max', title: 'gap max (ms)', width: 130, digits: 2 },
  { figure: 'rtt.p99', title: 'rtt p99 (ms)', width: 130, digits: 2 },
];

// 1,520 px in all, the phase table's first two columns
export const STREAM_TABLE_COLUMNS: readonly Column[] = [SUMMARY_COLUMNS[0]!, SUMMARY_COLUMNS[1]!, ...STREAM_PNG.map((c) => ({ title: c.title, width: c.width, align: 'right' as const }))];

/** Each phase that opened streams, its stream endpoints under it by name, as the streams table's cells. */
export function streamLines(rows: readonly StreamRow[]): string[][] {
  const at = STREAM_PNG.map((c) => STREAM_COLUMNS.findIndex((s) => s.figure === c.figure));
  return rows.map((r) => [r.endpoint === null ? r.server : '', r.endpoint === null ? r.phase : `↳ ${r.endpoint}`, ...STREAM_PNG.map((c, i) => {
    const v = r.values[at[i]!] ?? null;
    return c.digits === 0 && v !== null ? v.toLocaleString('en-US') : f(v, c.digits);
  })]);
}
