import type Database from 'better-sqlite3';
import { COL, REQUEST_STRIDE, packRequests, readRow, requestPoint, type RequestRow } from '../contract/measurement.js';
import type { RequestPoint } from '../contract/results.js';
import type { RequestReader } from './request-reader.js';
import { damaged } from './sql-read.js';

// A server run's compare sample (issue 29, migration 015): at most COMPARE_SAMPLE_ROWS of its
// request rows, evenly spaced over what was stored (the rows getRequests' even sampling keeps),
// which is what Compare's block bootstrap resamples (engine/compare/compare-intervals.ts). Drawn
// once, just after the run's end is written, and kept as one packed blob, so `compare` and a
// regression verdict read this and never the raw rows: two runs of 10M requests cost what two of
// 4,000 do. Spacing is by row rank (RequestReader.evenRows), not by id: after the writer's level
// sampling dropped rows, ids are dense where a run was written at a high level and sparse where it
// was thinned afterwards, so evenly spaced ids would over-weigh the run's start.

/** rows per server run that Compare's bootstrap reads at most */
export const COMPARE_SAMPLE_ROWS = 4000;

// A sample keeps the columns migration 015 stored, up to templateIdx: a trace seq (migration 22) means
// nothing to Compare, and the samples kept before it stay readable as they are.
const SAMPLE_STRIDE = COL.templateIdx + 1;
const BYTES_PER_ROW = SAMPLE_STRIDE * Float64Array.BYTES_PER_ELEMENT;

/** Rows packed with the sample's columns only. */
function packSample(rows: readonly RequestRow[]): Float64Array {
  const full = packRequests(rows);
  const out = new Float64Array(rows.length * SAMPLE_STRIDE);
  for (let i = 0; i < rows.length; i++) out.set(full.subarray(i * REQUEST_STRIDE, i * REQUEST_STRIDE + SAMPLE_STRIDE), i * SAMPLE_STRIDE);
  return out;
}

/** Row i of a packed sample as a point (the columns it does not keep read as not measured). */
function samplePoint(packed: Float64Array, i: number): RequestPoint {
  const row = new Float64Array(REQUEST_STRIDE).fill(NaN);
  row.set(packed.subarray(i * SAMPLE_STRIDE, (i + 1) * SAMPLE_STRIDE));
  return requestPoint(readRow(row, 0));
}

function num(v: unknown, where: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw damaged(where, `expected a number, got ${v === null ? 'NULL' : typeof v}`);
}

export class CompareSampleStore {
  private readonly targetsOfRun: Database.Statement;
  private readonly save: Database.Statement;
  private readonly load: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly reader: RequestReader,
  ) {
    this.targetsOfRun = db.prepare('SELECT id FROM targets WHERE run_id = ? ORDER BY id').pluck();
    this.save = db.prepare('INSERT OR REPLACE INTO compare_samples (target_id, rows) VALUES (?, ?)');
    this.load = db.prepare('SELECT rows FROM compare_samples WHERE target_id = ?').pluck();
  }

  /** Draws and keeps the sample of each of a run's server runs (called by the store's own writes only). */
  keep(runId: number): void {
    for (const targetId of this.targetsOfRun.all(runId)) {
      const id = num(targetId, `run ${runId} target`);
      const packed = this.draw(id);
      this.save.run(id, Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength));
    }
  }

  /** A server run's sample as points; drawn from its raw rows now when it has none kept (runs stored before migration 015). */
  points(targetId: number): RequestPoint[] {
    const blob = this.load.get(targetId);
    const where = `target ${targetId} compare sample`;
    let packed: Float64Array;
    if (blob === undefined) packed = this.draw(targetId);
    else {
      if (!Buffer.isBuffer(blob) || blob.byteLength % BYTES_PER_ROW !== 0) throw damaged(where, 'not a whole number of packed rows');
      // copied: a Float64Array needs its byte offset aligned, a Buffer's slice of the pool may not be
      packed = new Float64Array(new Uint8Array(blob).buffer);
    }
    const out: RequestPoint[] = [];
    for (let i = 0; i < packed.length / SAMPLE_STRIDE; i++) out.push(samplePoint(packed, i));
    return out;
  }

  /** At most COMPARE_SAMPLE_ROWS rows of a server run, evenly spaced over its stored rows (the reader's rule), packed. */
  private draw(targetId: number): Float64Array {
    return packSample(this.reader.evenRows(targetId, COMPARE_SAMPLE_ROWS, `target ${targetId} request`).rows);
  }
}
