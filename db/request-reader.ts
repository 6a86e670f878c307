import type Database from 'better-sqlite3';
import type { RequestPoint } from '../contract/results.js';
import { LoadscopeError } from '../contract/errors.js';
import { requestPoint, type RequestRow } from '../contract/measurement.js';
import { runNotFound } from './not-found.js';
import { RequestRows } from './request-rows.js';
import { damaged } from './sql-read.js';

/** A stored row as iterateRequests gives it back. */
export interface StoredRequestRow extends RequestRow {
  targetId: number;
}

// Raw request rows for the API (a server run's points, a run's rows for an export), read through
// db/request-rows.ts, the one module that knows how they are stored.

export interface RequestPage {
  points: RequestPoint[];
  /** requests recorded for the target (stored or not) */
  total: number;
  /** true when points hold fewer than total: the run's cap or the limit sampled them */
  sampled: boolean;
}

function n(v: unknown, where: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw damaged(where, `expected a number, got ${v === null ? 'NULL' : typeof v}`);
}

export class RequestReader {
  private readonly target: Database.Statement;
  private readonly runExists: Database.Statement;
  private readonly targetsOfRun: Database.Statement;
  /** the one reader of stored rows, whatever their shape; the run reader's slowest and first requests read through it too */
  readonly rows: RequestRows;

  constructor(db: Database.Database) {
    this.rows = new RequestRows(db);
    this.target = db.prepare('SELECT raw_rows FROM targets WHERE id = ? AND run_id = ?').pluck();
    this.runExists = db.prepare('SELECT 1 FROM runs WHERE id = ?').pluck();
    this.targetsOfRun = db.prepare('SELECT id FROM targets WHERE run_id = ? ORDER BY id').pluck();
  }

  getRequests(runId: number, targetId: number, limit: number): RequestPage {
    if (!Number.isInteger(limit) || limit < 1) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `limit must be a positive integer, got ${limit}`);
    const recorded = this.target.get(targetId, runId);
    if (recorded === undefined) {
      if (this.runExists.get(runId) === undefined) throw runNotFound(runId);
      throw new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `run ${runId} has no server run (target) ${targetId}; \`loadscope show ${runId}\` lists them`);
    }
    const where = `run ${runId} target ${targetId} request`;
    const { rows, stored } = this.evenRows(targetId, limit, where);
    const points = rows.map((row): RequestPoint => requestPoint(row));
    const total = Math.max(n(recorded, where), stored);
    return { points, total, sampled: points.length < total };
  }

  /** At most `limit` of a server run's stored rows, evenly spaced over them in recorded order (all when fewer), and how many are stored. */
  evenRows(targetId: number, limit: number, where: string): { rows: RequestRow[]; stored: number } {
    return this.rows.evenRows(targetId, limit, where);
  }

  /** Every stored row of a run, target by target in recorded order, a page at a time. Throws at once for a missing run. */
  iterateRequests(runId: number): IterableIterator<StoredRequestRow> {
    if (this.runExists.get(runId) === undefined) throw runNotFound(runId);
    const targets = this.targetsOfRun.all(runId).map((id) => n(id, `run ${runId} target`));
    return this.pages(runId, targets);
  }

  private *pages(runId: number, targets: number[]): IterableIterator<StoredRequestRow> {
    for (const targetId of targets) {
      for (const row of this.rows.rows(targetId, `run ${runId} target ${targetId} request`)) yield { targetId, ...row };
    }
  }
}
