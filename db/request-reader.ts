import type Database from 'better-sqlite3';
import { ERROR_KINDS, type ErrorKind, type RequestPoint } from '../contract/results.js';
import { LoadscopeError } from '../contract/errors.js';
import { REQUEST_COLUMNS, requestPoint, type RequestColumnName, type RequestRow } from '../contract/measurement.js';
import { runNotFound } from './not-found.js';
import { damaged } from './sql-read.js';

/** A stored row as iterateRequests gives it back. */
export interface StoredRequestRow extends RequestRow {
  targetId: number;
}

// Reads raw request rows. Both readers use .raw() arrays (no object per row from SQLite) and check
// each value's type as they convert it. iterateRequests pages by id instead of holding one cursor
// open, so the connection stays free for writes between pages (an export can run beside a run).

const PAGE = 5000;
/** the columns toRow reads, id first */
export const COLUMNS = ['id', ...REQUEST_COLUMNS.map((c) => c.sql)].join(', ');

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

function optN(v: unknown, where: string): number | null {
  return v === null ? null : n(v, where);
}

function errorKind(v: unknown, where: string): ErrorKind | null {
  if (v === null) return null;
  const kind = ERROR_KINDS.find((k) => k === v);
  if (kind === undefined) throw damaged(where, `unknown error kind ${String(v)}`);
  return kind;
}

/** A SELECT of COLUMNS (id first) as a RequestRow, every value checked against its column. */
export function toRow(raw: unknown, where: string): RequestRow {
  if (!Array.isArray(raw)) throw damaged(where, 'not a row');
  const cols: unknown[] = raw;
  const row = {} as Record<RequestColumnName, number | ErrorKind | null>;
  REQUEST_COLUMNS.forEach((c, k) => {
    const v = cols[k + 1];
    row[c.name] = c.unit === 'error kind' ? errorKind(v, where) : c.nullable ? optN(v, where) : n(v, where);
  });
  return row as RequestRow;
}

export class RequestReader {
  private readonly target: Database.Statement;
  private readonly runExists: Database.Statement;
  private readonly count: Database.Statement;
  private readonly all: Database.Statement;
  private readonly evenIds: Database.Statement;
  private readonly idRange: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly targetsOfRun: Database.Statement;
  private readonly page: Database.Statement;

  constructor(db: Database.Database) {
    this.target = db.prepare('SELECT raw_rows FROM targets WHERE id = ? AND run_id = ?').pluck();
    this.runExists = db.prepare('SELECT 1 FROM runs WHERE id = ?').pluck();
    this.count = db.prepare('SELECT count(*) FROM requests WHERE target_id = ?').pluck();
    this.all = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? ORDER BY id`).raw();
    // Row i (0-based, in id order) is kept when i * limit crosses a multiple of stored: exactly
    // `limit` rows, evenly spaced over the stored ones. Ranked over ids alone (the covering index),
    // then fetched by id: a window carrying every column took seconds on a run of 650k rows.
    this.evenIds = db
      .prepare('SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM requests WHERE target_id = @target) WHERE (i * @limit) % @stored < @limit ORDER BY id')
      .pluck();
    this.idRange = db.prepare('SELECT min(id) AS lo, max(id) AS hi FROM requests WHERE target_id = ?');
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE id = ?`).raw();
    this.targetsOfRun = db.prepare('SELECT id FROM targets WHERE run_id = ? ORDER BY id').pluck();
    this.page = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? AND id > ? ORDER BY id LIMIT ${PAGE}`).raw();
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

  /** At most `limit` of a server run's stored rows, evenly spaced over them in id order (all when fewer), and how many are stored. */
  evenRows(targetId: number, limit: number, where: string): { rows: RequestRow[]; stored: number } {
    const stored = n(this.count.get(targetId), where);
    const found = stored <= limit ? this.all.all(targetId) : this.evenlySpacedIds(targetId, limit, stored, where).map((id) => this.byId.get(id));
    return { rows: found.map((raw) => toRow(raw, where)), stored };
  }

  /**
   * The ids of rows i with (i * limit) % stored < limit, i their rank in id order. A server run whose
   * ids have no gap (every row of a run under its cap, written by one writer) has row i at id lo + i,
   * so they are counted out here; otherwise SQLite ranks them (a window over all its ids: ~80 ms for
   * 240k rows, at every run's end for its compare sample).
   */
  private evenlySpacedIds(targetId: number, limit: number, stored: number, where: string): number[] {
    const range = this.idRange.get(targetId) as { lo: unknown; hi: unknown } | undefined;
    const lo = range === undefined ? null : optN(range.lo, where);
    const hi = range === undefined ? null : optN(range.hi, where);
    if (lo === null || hi === null || hi - lo + 1 !== stored) return this.evenIds.all({ target: targetId, limit, stored }).map((id) => n(id, where));
    const ids: number[] = [];
    for (let i = 0; i < stored; i++) if ((i * limit) % stored < limit) ids.push(lo + i);
    return ids;
  }

  /** Every stored row of a run, target by target in id order, a page at a time. Throws at once for a missing run. */
  iterateRequests(runId: number): IterableIterator<StoredRequestRow> {
    if (this.runExists.get(runId) === undefined) throw runNotFound(runId);
    const targets = this.targetsOfRun.all(runId).map((id) => n(id, `run ${runId} target`));
    return this.pages(runId, targets);
  }

  private *pages(runId: number, targets: number[]): IterableIterator<StoredRequestRow> {
    for (const targetId of targets) {
      const where = `run ${runId} target ${targetId} request`;
      let after = 0;
      for (;;) {
        const page = this.page.all(targetId, after);
        for (const raw of page) {
          if (!Array.isArray(raw)) throw damaged(where, 'not a row');
          const cols: unknown[] = raw;
          after = n(cols[0], where);
          yield { targetId, ...toRow(raw, where) };
        }
        if (page.length < PAGE) break;
      }
    }
  }
}
