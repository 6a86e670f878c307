import { ERROR_KINDS, type ErrorKind, type RequestPoint } from '../../contract/results.js';
import { NO_ERROR, REQUEST_COLUMNS, REQUEST_STRIDE } from '../../db/requests-layout.js';

// Raw per-request rows, as the driver worker records them and the store writes them: the store's
// batch layout (db/requests-layout.ts), so a batch goes from the worker to the store untouched.
// A batch is a Float64Array of `count` rows, ROW_STRIDE numbers each (transferred, never copied per row):
//
//   row i starts at i * ROW_STRIDE
//   ┌───────┬────────┬──────────┬──────┬───────────┬──────┬────────┬───────┬───────┬────────────┬────────────┐
//   │ phase │ client │ intended │ sent │ firstByte │ done │ status │ bytes │ error │ serverWait │ processing │
//   └───────┴────────┴──────────┴──────┴───────────┴──────┴────────┴───────┴───────┴────────────┴────────────┘
//     0       1        2          3      4           5      6        7       8       9            10
//
// Times (2-5) are microseconds on the monotonic clock, from t0 (the start of the driver's schedule).
// sent / firstByte are NaN when the request never reached a socket / never got response headers.
// status is 0 without a response. bytes = response body bytes. error = NO_ERROR (-1) for ok, else the
// index of its kind in ERROR_KINDS. serverWait / processing are the server's Server-Timing `wait` /
// `proc` in microseconds, NaN when absent.
export const ROW_STRIDE = REQUEST_STRIDE;
export { NO_ERROR };
export const COL = {
  phase: 0,
  client: 1,
  intended: 2,
  sent: 3,
  firstByte: 4,
  done: 5,
  status: 6,
  bytes: 7,
  error: 8,
  serverWait: 9,
  processing: 10,
} as const;

// The literals above are what the hot path writes; they must be the store's columns.
const STORE_NAMES: Record<keyof typeof COL, (typeof REQUEST_COLUMNS)[number]> = {
  phase: 'phaseIdx',
  client: 'clientIdx',
  intended: 'intendedUs',
  sent: 'sentUs',
  firstByte: 'firstByteUs',
  done: 'doneUs',
  status: 'status',
  bytes: 'bytes',
  error: 'error',
  serverWait: 'serverWaitUs',
  processing: 'serverProcUs',
};
for (const [k, name] of Object.entries(STORE_NAMES)) {
  if (REQUEST_COLUMNS.indexOf(name) !== COL[k as keyof typeof COL]) throw new Error(`raw row column ${k} disagrees with the store layout`);
}

/** Rows per batch: a batch goes up when full, or at each window, whichever comes first. */
export const ROW_BATCH_CAPACITY = 4096;

export interface RawRowBatch {
  /** exactly count * ROW_STRIDE numbers */
  rows: Float64Array;
  count: number;
}

/** Error kind -> the number in the error column. */
export const ERROR_CODE: Readonly<Record<ErrorKind, number>> = Object.fromEntries(ERROR_KINDS.map((kind, i) => [kind, i])) as Record<ErrorKind, number>;

export function errorKindOf(code: number): ErrorKind | null {
  return code < 0 ? null : (ERROR_KINDS[code] ?? 'other');
}

/** One row as an object (for the store and tests; not for the hot path). */
export interface RawRow {
  phase: number;
  client: number;
  intendedUs: number;
  sentUs: number | null;
  firstByteUs: number | null;
  doneUs: number;
  status: number;
  bytes: number;
  error: ErrorKind | null;
  serverWaitUs: number | null;
  processingUs: number | null;
}

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

export function readRow(rows: Float64Array, i: number): RawRow {
  const o = i * ROW_STRIDE;
  return {
    phase: rows[o + COL.phase]!,
    client: rows[o + COL.client]!,
    intendedUs: rows[o + COL.intended]!,
    sentUs: orNull(rows[o + COL.sent]!),
    firstByteUs: orNull(rows[o + COL.firstByte]!),
    doneUs: rows[o + COL.done]!,
    status: rows[o + COL.status]!,
    bytes: rows[o + COL.bytes]!,
    error: errorKindOf(rows[o + COL.error]!),
    serverWaitUs: orNull(rows[o + COL.serverWait]!),
    processingUs: orNull(rows[o + COL.processing]!),
  };
}

/** The derived metrics of one row, in ms, as the scatter plots show them (total, wait, processing). */
export function toRequestPoint(rows: Float64Array, i: number): RequestPoint {
  const o = i * ROW_STRIDE;
  const total = rows[o + COL.done]! - rows[o + COL.intended]!;
  const proc = rows[o + COL.processing]!;
  const processing = Number.isNaN(proc) ? null : proc;
  return {
    phaseIndex: rows[o + COL.phase]!,
    intendedMs: rows[o + COL.intended]! / 1000,
    totalMs: total / 1000,
    waitMs: (processing === null ? total : Math.max(0, total - processing)) / 1000,
    processingMs: processing === null ? null : processing / 1000,
    status: rows[o + COL.status]!,
    error: errorKindOf(rows[o + COL.error]!),
  };
}
