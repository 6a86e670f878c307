import { ERROR_KINDS, type ErrorKind } from '../contract/results.js';

// Raw request rows cross from the driver to the store as one Float64Array per batch: a fixed stride
// of REQUEST_STRIDE numbers per row, no objects, so a batch can be transferred between threads
// without copying and written without allocating per row.
//
//   offset: 0         1          2            3        4              5        6       7      8      9               10
//           phaseIdx  clientIdx  intendedUs   sentUs   firstByteUs    doneUs   status  bytes  error  serverWaitUs    serverProcUs
//
// Times are microseconds relative to the server run start (rounded to integers when stored).
// NaN means "none" for sentUs, firstByteUs, serverWaitUs and serverProcUs (stored as NULL).
// error is an index into ERROR_KINDS, or -1 for no error. status is 0 when there was no response.
export const REQUEST_COLUMNS = [
  'phaseIdx',
  'clientIdx',
  'intendedUs',
  'sentUs',
  'firstByteUs',
  'doneUs',
  'status',
  'bytes',
  'error',
  'serverWaitUs',
  'serverProcUs',
] as const;
export const REQUEST_STRIDE = REQUEST_COLUMNS.length;
export const NO_ERROR = -1;

/** One raw request as an object (tests, CSV export). Null where the packed form has NaN / -1. */
export interface RequestRow {
  phaseIdx: number;
  clientIdx: number;
  intendedUs: number;
  sentUs: number | null;
  firstByteUs: number | null;
  doneUs: number;
  status: number;
  bytes: number;
  error: ErrorKind | null;
  serverWaitUs: number | null;
  serverProcUs: number | null;
}

/** A stored row as iterateRequests gives it back. */
export interface StoredRequestRow extends RequestRow {
  targetId: number;
}

export function errorCode(kind: ErrorKind | null): number {
  return kind === null ? NO_ERROR : ERROR_KINDS.indexOf(kind);
}

/** Packs rows into the batch layout (convenient for tests and small writers; the driver fills the array directly). */
export function packRequests(rows: readonly RequestRow[]): Float64Array {
  const out = new Float64Array(rows.length * REQUEST_STRIDE);
  rows.forEach((r, i) => {
    const o = i * REQUEST_STRIDE;
    out[o] = r.phaseIdx;
    out[o + 1] = r.clientIdx;
    out[o + 2] = r.intendedUs;
    out[o + 3] = r.sentUs ?? NaN;
    out[o + 4] = r.firstByteUs ?? NaN;
    out[o + 5] = r.doneUs;
    out[o + 6] = r.status;
    out[o + 7] = r.bytes;
    out[o + 8] = errorCode(r.error);
    out[o + 9] = r.serverWaitUs ?? NaN;
    out[o + 10] = r.serverProcUs ?? NaN;
  });
  return out;
}
