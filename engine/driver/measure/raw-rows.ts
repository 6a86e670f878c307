import { ERROR_KINDS } from '../../../contract/error-kinds.js';
import type { ErrorKind, RequestPoint } from '../../../contract/results.js';
import { REQUEST_STRIDE, readRow, requestPoint } from '../../../contract/measurement.js';

// Raw per-request rows, as the driver worker records them and the store writes them: the layout of
// contract/measurement.ts, so a batch goes from the worker to the store untouched. A batch is a
// Float64Array of `count` rows, ROW_STRIDE numbers each (transferred, never copied per row).
export const ROW_STRIDE = REQUEST_STRIDE;
export { COL, NO_ERROR, readRow, errorKindOf, type RequestRow } from '../../../contract/measurement.js';

/** Rows per batch: a batch goes up when full, or at each window, whichever comes first. */
export const ROW_BATCH_CAPACITY = 4096;

export interface RawRowBatch {
  /** exactly count * ROW_STRIDE numbers */
  rows: Float64Array;
  count: number;
}

/** Error kind -> the number in the error column. */
export const ERROR_CODE: Readonly<Record<ErrorKind, number>> = Object.fromEntries(ERROR_KINDS.map((kind, i) => [kind, i])) as Record<ErrorKind, number>;

/** The derived metrics of row i, in ms, as the scatter plots show them. */
export function toRequestPoint(rows: Float64Array, i: number): RequestPoint {
  return requestPoint(readRow(rows, i));
}
