import type Database from 'better-sqlite3';
import { REQUEST_COLUMNS, REQUEST_STRIDE, packRequests, readRow, requestPoint } from '../contract/measurement.js';
import type { RequestPoint } from '../contract/results.js';
import { toRow } from './request-reader.js';
import { damaged } from './sql-read.js';

// A server run's compare sample (issue 29, migration 015): at most COMPARE_SAMPLE_ROWS of its
// request rows, evenly spaced over what was stored (the rows getRequests' even sampling keeps),
// which is what Compare's block bootstrap resamples (engine/compare/compare-intervals.ts). Drawn
// once, just after the run's end is written, and kept as one packed blob, so `compare` and a
// regression verdict read this and never the raw rows: two runs of 10M requests cost what two of
// 4,000 do. Spacing is by row rank, not by id: after the writer's level sampling dropped rows, ids
// are dense where a run was written at a high level and sparse where it was thinned afterwards, so
// evenly spaced ids would over-weigh the run's start.

/** rows per server run that Compare's bootstrap reads at most */
export const COMPARE_SAMPLE_ROWS = 4000;

const BYTES_PER_ROW = REQUEST_STRIDE * Float64Array.BYTES_PER_ELEMENT;
const COLUMNS = ['id', ...REQUEST_COLUMNS.map((c) => c.sql)].join(', ');

function num(v: unknown, where: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw damaged(where, `expected a number, got ${v === null ? 'NULL' : typeof v}`);
}

export class CompareSampleStore {
  private readonly count: Database.Statement;
  private readonly evenIds: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly all: Database.Statement;
  private readonly targetsOfRun: Database.Statement;
  private readonly save: Database.Statement;
  private readonly load: Database.Statement;

  constructor(db: Database.Database) {
    this.count = db.prepare('SELECT count(*) FROM requests WHERE target_id = ?').pluck();
    // Row i (0-based, in id order) is kept when i * limit crosses a multiple of stored: exactly
    // `limit` rows, evenly spaced over the stored ones (the rule getRequests samples by). Ranked over
    // ids alone (the covering index), the rows then fetched by id: the window never carries columns.
    this.evenIds = db
      .prepare('SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM requests WHERE target_id = @target) WHERE (i * @limit) % @stored < @limit')
      .pluck();
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE id = ?`).raw();
    this.all = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? ORDER BY id`).raw();
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
      packed = new Float64Array(Uint8Array.from(blob).buffer);
    }
    const out: RequestPoint[] = [];
    for (let i = 0; i < packed.length / REQUEST_STRIDE; i++) out.push(requestPoint(readRow(packed, i)));
    return out;
  }

  /** At most COMPARE_SAMPLE_ROWS rows of a server run, evenly spaced over its stored rows in id order, packed. */
  private draw(targetId: number): Float64Array {
    const where = `target ${targetId} request`;
    const stored = num(this.count.get(targetId), where);
    const raws: unknown[] =
      stored <= COMPARE_SAMPLE_ROWS
        ? this.all.all(targetId)
        : this.evenIds.all({ target: targetId, limit: COMPARE_SAMPLE_ROWS, stored }).map((id) => this.byId.get(num(id, where)));
    return packRequests(raws.map((raw) => toRow(raw, where)));
  }
}
