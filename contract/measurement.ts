import { ERROR_KINDS } from './error-kinds.js';
import type { ErrorKind, LatencyStats, RequestPoint } from './results.js';

// The one home of what Loadscope measures per request. The driver fills rows in this layout, the
// store writes and reads them by these names, and CSV, scatter and histograms derive their times
// through deriveTimes() below, so no two places can disagree on a column's offset or on what "wait"
// means. Offsets are the columns' positions here; nothing else writes them by hand.
//
//   request row (Float64Array, REQUEST_STRIDE numbers a row):
//   ┌──────────┬───────────┬────────────┬────────┬─────────────┬────────┬────────┬───────┬───────┬──────────────┬──────────────┬─────────────┐
//   │ phaseIdx │ clientIdx │ intendedUs │ sentUs │ firstByteUs │ doneUs │ status │ bytes │ error │ serverWaitUs │ serverProcUs │ templateIdx │
//   └──────────┴───────────┴────────────┴────────┴─────────────┴────────┴────────┴───────┴───────┴──────────────┴──────────────┴─────────────┘
//
// templateIdx comes last so the older columns keep their offsets (it was added in db migration 10).
//
// Times are microseconds on the driver's monotonic clock from the server run's t0. NaN in the packed
// form is null in the object form (sent: never reached a socket; firstByte: no response headers;
// serverWait / serverProc: no Server-Timing). error is -1 (NO_ERROR) or an index into ERROR_KINDS.

export type ColumnUnit = 'index' | 'us' | 'http status' | 'bytes' | 'error kind';

export interface RequestColumn {
  /** the object field and, in snake_case, the SQLite column */
  readonly name: string;
  readonly sql: string;
  readonly unit: ColumnUnit;
  readonly nullable: boolean;
  readonly doc: string;
}

export const REQUEST_COLUMNS = [
  { name: 'phaseIdx', sql: 'phase_idx', unit: 'index', nullable: false, doc: 'the phase, by its index in the scenario' },
  { name: 'clientIdx', sql: 'client_idx', unit: 'index', nullable: false, doc: 'the client (slot) that sent it' },
  { name: 'intendedUs', sql: 'intended_us', unit: 'us', nullable: false, doc: 'intended: when the schedule wanted it sent' },
  { name: 'sentUs', sql: 'sent_us', unit: 'us', nullable: true, doc: 'sent: when its first byte was written' },
  { name: 'firstByteUs', sql: 'first_byte_us', unit: 'us', nullable: true, doc: 'first byte: when the response headers began' },
  { name: 'doneUs', sql: 'done_us', unit: 'us', nullable: false, doc: 'done: when the response (or the error) was complete' },
  { name: 'status', sql: 'status', unit: 'http status', nullable: false, doc: 'HTTP status, 0 without a response' },
  { name: 'bytes', sql: 'bytes', unit: 'bytes', nullable: false, doc: 'response body bytes' },
  { name: 'error', sql: 'error', unit: 'error kind', nullable: true, doc: 'error kind, none when ok' },
  { name: 'serverWaitUs', sql: 'server_wait_us', unit: 'us', nullable: true, doc: "the server's Server-Timing wait" },
  { name: 'serverProcUs', sql: 'server_proc_us', unit: 'us', nullable: true, doc: "the server's Server-Timing proc" },
  { name: 'templateIdx', sql: 'template_idx', unit: 'index', nullable: false, doc: "the request template (endpoint), by its index in its phase's requests" },
] as const satisfies readonly RequestColumn[];

export type RequestColumnName = (typeof REQUEST_COLUMNS)[number]['name'];
type ColumnOf<N extends RequestColumnName> = Extract<(typeof REQUEST_COLUMNS)[number], { name: N }>;
type ValueOf<C extends RequestColumn> = C['unit'] extends 'error kind' ? ErrorKind | null : C['nullable'] extends true ? number | null : number;

/** One request as an object (store reads, CSV, tests). Null where the packed form has NaN / -1. */
export type RequestRow = { [N in RequestColumnName]: ValueOf<ColumnOf<N>> };

export const REQUEST_STRIDE = REQUEST_COLUMNS.length;
export const NO_ERROR = -1;

/** Each column's offset in a row: its position in REQUEST_COLUMNS. */
export const COL = Object.freeze(Object.fromEntries(REQUEST_COLUMNS.map((c, i) => [c.name, i]))) as { readonly [N in RequestColumnName]: number };

export function errorCode(kind: ErrorKind | null): number {
  return kind === null ? NO_ERROR : ERROR_KINDS.indexOf(kind);
}

export function errorKindOf(code: number): ErrorKind | null {
  return code < 0 ? null : (ERROR_KINDS[code] ?? 'other');
}

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** Row i of a packed batch as an object. */
export function readRow(rows: Float64Array, i: number): RequestRow {
  const o = i * REQUEST_STRIDE;
  const row = {} as Record<RequestColumnName, number | ErrorKind | null>;
  REQUEST_COLUMNS.forEach((c, k) => {
    const v = rows[o + k]!;
    row[c.name] = c.unit === 'error kind' ? errorKindOf(v) : c.nullable ? orNull(v) : v;
  });
  return row as RequestRow;
}

/** Packs rows into the batch layout (tests and small writers; the driver fills its array directly). */
export function packRequests(rows: readonly RequestRow[]): Float64Array {
  const out = new Float64Array(rows.length * REQUEST_STRIDE);
  rows.forEach((r, i) => {
    REQUEST_COLUMNS.forEach((c, k) => {
      const v = r[c.name];
      out[i * REQUEST_STRIDE + k] = c.unit === 'error kind' ? errorCode(v as ErrorKind | null) : typeof v === 'number' ? v : NaN;
    });
  });
  return out;
}

// ---- derived times: the one definition -------------------------------------------------------
//
//   total      = done - intended         (client-side queueing counts: no coordinated omission)
//   processing = the server's proc        (as the server reported it; null without Server-Timing)
//   wait       = max(0, total - processing), or total without Server-Timing
//   serverWait = the server's wait        (time queued inside the server; null without it)
//   lag        = sent - intended          (how late the generator itself was; null if never sent)
//
// wait is clamped at 0 once, here: processing comes from the server's clock and is rounded there,
// so on a fast local request it can exceed total by a few µs; a negative wait means nothing.

/** wait from total and processing (µs); NaN processing means "no Server-Timing". Hot-path safe. */
export function waitOf(totalUs: number, procUs: number): number {
  if (procUs !== procUs) return totalUs;
  return totalUs > procUs ? totalUs - procUs : 0;
}

export interface DerivedTimes {
  totalUs: number;
  waitUs: number;
  processingUs: number | null;
  serverWaitUs: number | null;
  lagUs: number | null;
}

export function deriveTimes(row: Pick<RequestRow, 'intendedUs' | 'sentUs' | 'doneUs' | 'serverProcUs' | 'serverWaitUs'>): DerivedTimes {
  const totalUs = row.doneUs - row.intendedUs;
  return {
    totalUs,
    waitUs: waitOf(totalUs, row.serverProcUs ?? NaN),
    processingUs: row.serverProcUs,
    serverWaitUs: row.serverWaitUs,
    lagUs: row.sentUs === null ? null : row.sentUs - row.intendedUs,
  };
}

/** A request as the scatter plots it: its derived times in ms. */
export function requestPoint(row: RequestRow): RequestPoint {
  const t = deriveTimes(row);
  const ms = (us: number | null) => (us === null ? null : us / 1000);
  return {
    phaseIndex: row.phaseIdx,
    intendedMs: row.intendedUs / 1000,
    totalMs: t.totalUs / 1000,
    waitMs: t.waitUs / 1000,
    processingMs: ms(t.processingUs),
    serverWaitMs: ms(t.serverWaitUs),
    lagMs: ms(t.lagUs),
    status: row.status,
    error: row.error,
  };
}

/**
 * Whether a request enters the latency histograms: every attempted request but connection refusals
 * (whose near-zero times would only flatter the percentiles). Counts and raw rows take every request.
 */
export function inLatencyHistograms(error: ErrorKind | null): boolean {
  return error !== 'refused';
}

// ---- the histogram set -----------------------------------------------------------------------

export const HISTOGRAMS = [
  { key: 'total', label: 'total', nullable: false, doc: 'done - intended' },
  { key: 'wait', label: 'wait', nullable: false, doc: 'total - processing, at least 0' },
  { key: 'processing', label: 'processing', nullable: true, doc: "the server's Server-Timing proc" },
  { key: 'serverWait', label: 'server wait', nullable: true, doc: "the server's Server-Timing wait" },
  { key: 'lag', label: 'lag', nullable: false, doc: 'sent - intended: schedule lag of the load generator' },
] as const;

export type HistogramKey = (typeof HISTOGRAMS)[number]['key'];

/** A phase's encoded HDR histograms (hdr-histogram-js compressed base64, values in µs); null where nothing was measured. */
export interface HistogramSet {
  total: string;
  wait: string;
  processing: string | null;
  serverWait: string | null;
  lag: string;
}

/** The value (µs) a request adds to each histogram, null where it adds none. */
export function histogramValues(row: Pick<RequestRow, 'intendedUs' | 'sentUs' | 'doneUs' | 'serverProcUs' | 'serverWaitUs' | 'error'>): Record<HistogramKey, number | null> | null {
  if (!inLatencyHistograms(row.error)) return null;
  const t = deriveTimes(row);
  return { total: t.totalUs, wait: t.waitUs, processing: t.processingUs, serverWait: t.serverWaitUs, lag: t.lagUs };
}

// ---- percentiles -----------------------------------------------------------------------------

export const PERCENTILE_KEYS = ['p50', 'p66', 'p75', 'p80', 'p90', 'p95', 'p98', 'p99', 'p999'] as const;

/**
 * A percentile is never above the maximum. HDR reports a percentile as the upper edge of its bucket
 * (up to 0.1 % above the values in it) while the maximum is exact, so p99 could read 44.7 beside a
 * max of 44.6. Applied where stats are made (engine) and again where they are shown (runs stored
 * before this rule existed).
 */
export function clampPercentiles<T extends LatencyStats | null | undefined>(stats: T): T {
  if (!stats) return stats;
  const out: LatencyStats = { ...stats };
  for (const k of PERCENTILE_KEYS) out[k] = Math.min(out[k], out.max);
  return out as T;
}

// ---- glossary: the words the UI shows on hover, the CLI prints under its tables, the docs use ----

export const GLOSSARY = {
  intended: 'when the schedule wanted the request sent (open loop: its arrival time; closed loop: when its client was free)',
  sent: 'when its first byte was written to the socket',
  'first byte': 'when the first byte of the response arrived',
  done: 'when the response (or the error) was complete',
  total: 'done - intended: what a user waited, queueing in the load generator included (no coordinated omission)',
  wait: 'total - processing, at least 0: time queued anywhere (client, network, server) rather than worked on',
  processing: "the server's own Server-Timing proc: time spent working on the request",
  'server wait': "the server's own Server-Timing wait: time queued inside the server before work began",
  lag: 'sent - intended: how late the load generator itself was against its schedule (should stay near 0)',
} as const;

export type GlossaryTerm = keyof typeof GLOSSARY;

/** The glossary as footer lines: "term: meaning". */
export function glossaryLines(terms: readonly GlossaryTerm[] = Object.keys(GLOSSARY) as GlossaryTerm[]): string[] {
  return terms.map((t) => `${t}: ${GLOSSARY[t]}`);
}
