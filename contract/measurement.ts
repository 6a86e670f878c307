import { ERROR_KINDS } from './error-kinds.js';
import type { ErrorKind, LatencyStats, RequestPoint } from './results.js';

// The one home of what Loadscope measures per request. The driver fills rows in this layout, the
// store writes and reads them by these names, and CSV, scatter and histograms derive their times
// through deriveTimes() below, so no two places can disagree on a column's offset or on what "wait"
// means. Offsets are the columns' positions here; nothing else writes them by hand.
//
//   request row (Float64Array, REQUEST_STRIDE numbers a row):
//   ┌──────────┬───────────┬────────────┬────────┬─────────────┬────────┬────────┬───────┬───────┬──────────────┬──────────────┬─────────────┬──────────┐
//   │ phaseIdx │ clientIdx │ intendedUs │ sentUs │ firstByteUs │ doneUs │ status │ bytes │ error │ serverWaitUs │ serverProcUs │ templateIdx │ traceSeq │
//   └──────────┴───────────┴────────────┴────────┴─────────────┴────────┴────────┴───────┴───────┴──────────────┴──────────────┴─────────────┴──────────┘
//
// templateIdx and traceSeq come last so the older columns keep their offsets (added in db migrations 10 and 22).
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
  { name: 'traceSeq', sql: 'trace_seq', unit: 'index', nullable: true, doc: "the request's number in its server run's traces: the low half of its W3C trace id (contract/trace-context.ts); none when its phase did not send traceparent" },
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
//   wait       = max(0, total - processing); null without Server-Timing
//   serverWait = the server's wait        (time queued inside the server; null without it)
//   lag        = sent - intended          (the client's own queue: time in the load generator
//                                          before the request was sent; null if never sent)
//   ttfb       = firstByte - sent         (time to first byte: network, server queue and work;
//                                          null without a response or a send)
//   transfer   = done - firstByte         (the response arriving; null without response headers)
//
// wait is clamped at 0 once, here: processing comes from the server's clock and is rounded there,
// so on a fast local request it can exceed total by a few µs; a negative wait means nothing.
//
// Without Server-Timing, processing is unknown, so wait (total less processing) is unknown too:
// never the whole total, which would call every millisecond queueing. What the client knows on its
// own (client queue, time to first byte, transfer) is measured for every request instead.
//
// A phase where only some requests carry Server-Timing (mixed): its wait and processing figures are
// over the requests that carried it (their count says how many), never with the others counted as
// wait = total or processing = 0; total, client queue, time to first byte and transfer are over all.

/** wait from total and processing (µs); NaN processing ("no Server-Timing") gives NaN. Hot-path safe. */
export function waitOf(totalUs: number, procUs: number): number {
  if (procUs !== procUs) return NaN;
  return totalUs > procUs ? totalUs - procUs : 0;
}

export interface DerivedTimes {
  totalUs: number;
  /** null without Server-Timing: unknown, as processing is */
  waitUs: number | null;
  processingUs: number | null;
  serverWaitUs: number | null;
  lagUs: number | null;
  ttfbUs: number | null;
  transferUs: number | null;
}

export type TimingRow = Pick<RequestRow, 'intendedUs' | 'sentUs' | 'firstByteUs' | 'doneUs' | 'serverProcUs' | 'serverWaitUs'>;

export function deriveTimes(row: TimingRow): DerivedTimes {
  const totalUs = row.doneUs - row.intendedUs;
  return {
    totalUs,
    waitUs: row.serverProcUs === null ? null : waitOf(totalUs, row.serverProcUs),
    processingUs: row.serverProcUs,
    serverWaitUs: row.serverWaitUs,
    lagUs: row.sentUs === null ? null : row.sentUs - row.intendedUs,
    ttfbUs: row.sentUs === null || row.firstByteUs === null ? null : row.firstByteUs - row.sentUs,
    transferUs: row.firstByteUs === null ? null : row.doneUs - row.firstByteUs,
  };
}

/** A request as the scatter plots it: its derived times in ms. */
export function requestPoint(row: RequestRow): RequestPoint {
  const t = deriveTimes(row);
  const ms = (us: number | null) => (us === null ? null : us / 1000);
  return {
    phaseIndex: row.phaseIdx,
    templateIdx: row.templateIdx,
    intendedMs: row.intendedUs / 1000,
    totalMs: t.totalUs / 1000,
    waitMs: ms(t.waitUs),
    processingMs: ms(t.processingUs),
    serverWaitMs: ms(t.serverWaitUs),
    lagMs: ms(t.lagUs),
    ttfbMs: ms(t.ttfbUs),
    transferMs: ms(t.transferUs),
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
  { key: 'wait', label: 'wait', nullable: true, doc: 'total - processing, at least 0, where the server sent Server-Timing' },
  { key: 'processing', label: 'processing', nullable: true, doc: "the server's Server-Timing proc" },
  { key: 'serverWait', label: 'server wait', nullable: true, doc: "the server's Server-Timing wait" },
  { key: 'lag', label: 'client queue', nullable: false, doc: "sent - intended: the client's own queue (schedule lag of the load generator)" },
  { key: 'ttfb', label: 'ttfb', nullable: true, doc: 'first byte - sent' },
  { key: 'transfer', label: 'transfer', nullable: true, doc: 'done - first byte' },
] as const;

export type HistogramKey = (typeof HISTOGRAMS)[number]['key'];

/**
 * A phase's encoded HDR histograms (hdr-histogram-js compressed base64, values in µs); null where
 * nothing was measured (wait and processing without Server-Timing; ttfb and transfer in runs stored
 * before they were measured, and from k6, which reports neither per request).
 */
export interface HistogramSet {
  total: string;
  wait: string | null;
  processing: string | null;
  serverWait: string | null;
  lag: string;
  ttfb: string | null;
  transfer: string | null;
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
  wait: 'total - processing, at least 0: time queued anywhere (client, network, server) rather than worked on; unknown ("-") without Server-Timing',
  processing: "the server's own Server-Timing proc: time spent working on the request",
  'server wait': "the server's own Server-Timing wait: time queued inside the server before work began",
  'client queue': "sent - intended (lag): the client's own queue, time a request waited in the load generator before it was sent (waiting for a free connection, or the generator running late); not the server's",
  ttfb: 'time to first byte, first byte - sent: from the request leaving the client to the first byte of the response (network, server queue and work)',
  transfer: 'done - first byte: the response arriving after its first byte (body size and network)',
} as const;

export type GlossaryTerm = keyof typeof GLOSSARY;

/** The glossary as footer lines: "term: meaning". */
export function glossaryLines(terms: readonly GlossaryTerm[] = Object.keys(GLOSSARY) as GlossaryTerm[]): string[] {
  return terms.map((t) => `${t}: ${GLOSSARY[t]}`);
}

/**
 * A phase's start-up: its first half-second, where a keep-alive run opens its connections and its
 * first requests wait for them (client queue). New connections done within it are counted apart
 * (PhaseResult.connections.atStartup), so Compare and `show` can say a difference lies there.
 */
export const STARTUP_MS = 500;
