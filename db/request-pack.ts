import { ERROR_KINDS } from '../contract/results.js';
import { LoadscopeError } from '../contract/errors.js';
import { COL, NO_ERROR, REQUEST_COLUMNS, REQUEST_STRIDE } from '../contract/measurement.js';
import { damaged } from './sql-read.js';

// The stored form of raw request rows since migration 28: a pack is one batch's rows at one sampling
// level, REQUEST_STRIDE float64 a row in contract/measurement.ts's column order, as the driver lays
// them out, normalised when packed:
//
//   pack (rows x REQUEST_STRIDE float64, native byte order: little-endian on every platform shipped)
//   ┌── row 0 ─────────────────────────────────────────────┬── row 1 ──── ...
//   │ phaseIdx clientIdx intendedUs sentUs ... traceSeq     │ ...
//   └───────────────────────────────────────────────────────┴──────────── ...
//   times rounded to whole us; NaN where the column is NULL; error -1 (none) or an index into ERROR_KINDS
//
// Which rows of a batch went to which pack is not stored: row i of a batch that starts at row number
// seq0 of its run has level levelOf(seq0 + i), so a reader merges a batch's packs back into the order
// they were recorded (db/request-rows.ts).

export const PACK_ROW_BYTES = REQUEST_STRIDE * 8;

/** murmur3's 32-bit finaliser: a well-mixed hash of the row number, so levels look random but are reproducible. */
function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The sampling level of row `rowNumber` (0-based) of a run: P(level >= L) = 2^-L (request-writer.ts). */
export function levelOf(rowNumber: number): number {
  return Math.clz32(mix(rowNumber + 1));
}

const { intendedUs, sentUs, firstByteUs, doneUs, error, serverWaitUs, serverProcUs } = COL;
/** per column: rounded to whole us when packed; may be NULL (NaN) */
const ROUNDED = REQUEST_COLUMNS.map((_, k) => [intendedUs, sentUs, firstByteUs, doneUs, serverWaitUs, serverProcUs].includes(k));
const NULLABLE = REQUEST_COLUMNS.map((c) => c.nullable);

function badRow(row: number, why: string): LoadscopeError {
  return new LoadscopeError('LS_ERR_INTERNAL', `raw request row ${row} of the batch has ${why}`);
}

/**
 * Copies row `row` of the driver's `data` into row `at` of `out`, normalised; throws, naming the row
 * and column, on a value the store refuses (a non-finite required column, an unknown error code).
 */
export function packRow(out: Float64Array, at: number, data: Float64Array, row: number): void {
  const from = row * REQUEST_STRIDE;
  const to = at * REQUEST_STRIDE;
  for (let k = 0; k < REQUEST_STRIDE; k++) {
    let v = data[from + k]!;
    if (k === error) {
      if (v !== NO_ERROR && !(Number.isInteger(v) && v >= 0 && v < ERROR_KINDS.length)) throw badRow(row, `error code ${v}; expected -1 or 0..${ERROR_KINDS.length - 1}`);
    } else if (!Number.isFinite(v)) {
      if (!NULLABLE[k]) throw badRow(row, `${REQUEST_COLUMNS[k]!.name} ${v}; it must be a finite number`);
      v = NaN;
    } else if (ROUNDED[k]) v = Math.round(v);
    out[to + k] = v;
  }
}

/**
 * A stored pack's values, checked before anyone reads them: a blob that is not `rows` whole rows (a
 * torn or short write, another program's data) or a value outside its column is refused naming
 * `where`, never read past or handed on.
 */
export function unpack(blob: unknown, rows: number, where: string): Float64Array {
  if (!(blob instanceof Uint8Array)) throw damaged(where, `a request pack is ${blob === null ? 'NULL' : typeof blob}, not a blob`);
  if (blob.byteLength !== rows * PACK_ROW_BYTES) {
    throw damaged(where, `a request pack of ${rows} rows holds ${blob.byteLength} bytes, not ${rows * PACK_ROW_BYTES}`);
  }
  const values = new Float64Array(rows * REQUEST_STRIDE);
  new Uint8Array(values.buffer).set(blob); // a copy: the blob's offset in its buffer need not be aligned
  for (let o = 0; o < values.length; o += REQUEST_STRIDE) {
    for (let k = 0; k < REQUEST_STRIDE; k++) {
      const v = values[o + k]!;
      const ok = k === error ? v === NO_ERROR || (Number.isInteger(v) && v >= 0 && v < ERROR_KINDS.length) : Number.isFinite(v) || (NULLABLE[k]! && Number.isNaN(v));
      if (!ok) throw damaged(where, `row ${o / REQUEST_STRIDE} of a request pack has ${REQUEST_COLUMNS[k]!.name} ${v}`);
    }
  }
  return values;
}
