import type Database from 'better-sqlite3';
import { FIRST_REQUESTS_MAX } from '../contract/first-requests.js';
import { ERROR_KINDS, type ErrorKind } from '../contract/results.js';
import { COL, readRow, REQUEST_COLUMNS, REQUEST_STRIDE, type RequestColumnName, type RequestRow } from '../contract/measurement.js';
import { levelOf, unpack } from './request-pack.js';
import { damaged } from './sql-read.js';

// The one reader of stored raw request rows: every other reader (show, compare's sample, exports,
// diagnosis, slowest, first requests) asks this module and never knows how rows are stored. Two
// shapes live side by side: the requests table (a row each; every run stored before migration 28)
// and request_packs (db/request-pack.ts; every run since). A server run's rows come back in the order
// they were recorded: the table's in id order, then the packs', batch by batch.
//
// Memory is bounded whatever the run's size: the table is read PAGE rows at a time and the packs
// PACK_PAGE packs at a time (a batch's packs are merged, so one batch at most is held unpacked).
// A server run with no packs is read with the table's indexes (slowest, first requests, even rows);
// one with packs is scanned once, a pack at a time.

const PAGE = 5000;
const PACK_PAGE = 64;
/** the table's columns toRow reads, id first */
const COLUMNS = ['id', ...REQUEST_COLUMNS.map((c) => c.sql)].join(', ');
const TOTAL = '(done_us - intended_us)';

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

/** A SELECT of COLUMNS (id first) from the table as a RequestRow, every value checked against its column. */
function toRow(raw: unknown, where: string): RequestRow {
  if (!Array.isArray(raw)) throw damaged(where, 'not a row');
  const cols: unknown[] = raw;
  const row = {} as Record<RequestColumnName, number | ErrorKind | null>;
  REQUEST_COLUMNS.forEach((c, k) => {
    const v = cols[k + 1];
    row[c.name] = c.unit === 'error kind' ? errorKind(v, where) : c.nullable ? optN(v, where) : n(v, where);
  });
  return row as RequestRow;
}

interface Pack {
  id: number;
  lvl: number;
  seq0: number;
  batchRows: number;
  rows: number;
  data: unknown;
}

function toPack(raw: unknown, where: string): Pack {
  if (!Array.isArray(raw)) throw damaged(where, 'not a request pack');
  const [id, lvl, seq0, batchRows, rows, data]: unknown[] = raw;
  const pack = { id: n(id, where), lvl: n(lvl, where), seq0: n(seq0, where), batchRows: n(batchRows, where), rows: n(rows, where), data };
  if (!Number.isInteger(pack.rows) || pack.rows < 1 || !Number.isInteger(pack.batchRows) || pack.rows > pack.batchRows) {
    throw damaged(where, `a request pack of ${pack.rows} rows from a batch of ${pack.batchRows}`);
  }
  return pack;
}

const totalOf = (r: RequestRow) => r.doneUs - r.intendedUs;

/** A phase's rows at its first intended time, and how many rows were intended then. */
export interface FirstRows {
  rows: RequestRow[];
  stored: number;
}

export class RequestRows {
  private readonly tableCount: Database.Statement;
  private readonly packCount: Database.Statement;
  private readonly hasPacks: Database.Statement;
  private readonly tablePage: Database.Statement;
  private readonly packPage: Database.Statement;
  private readonly all: Database.Statement;
  private readonly evenIds: Database.Statement;
  private readonly idRange: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly slowTraced: Database.Statement;
  private readonly slowAny: Database.Statement;
  private readonly firstIntended: Database.Statement;
  private readonly firstCount: Database.Statement;
  private readonly firstRows: Database.Statement;

  constructor(db: Database.Database) {
    this.tableCount = db.prepare('SELECT count(*) FROM requests WHERE target_id = ?').pluck();
    this.packCount = db.prepare('SELECT coalesce(sum(rows), 0) FROM request_packs WHERE target_id = ?').pluck();
    this.hasPacks = db.prepare('SELECT 1 FROM request_packs WHERE target_id = ? LIMIT 1').pluck();
    this.tablePage = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? AND id > ? ORDER BY id LIMIT ${PAGE}`).raw();
    this.packPage = db.prepare(`SELECT id, lvl, seq0, batch_rows, rows, data FROM request_packs WHERE target_id = ? AND id > ? ORDER BY id LIMIT ${PACK_PAGE}`).raw();
    this.all = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? ORDER BY id`).raw();
    // Row i (0-based, in id order) is kept when i * limit crosses a multiple of stored: exactly
    // `limit` rows, evenly spaced over the stored ones. Ranked over ids alone (the covering index),
    // then fetched by id: a window carrying every column took seconds on a run of 650k rows.
    this.evenIds = db
      .prepare('SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM requests WHERE target_id = @target) WHERE (i * @limit) % @stored < @limit ORDER BY id')
      .pluck();
    this.idRange = db.prepare('SELECT min(id) AS lo, max(id) AS hi FROM requests WHERE target_id = ?');
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE id = ?`).raw();
    // a traced phase's rows through the partial index of migration 22, walked from the slowest end
    this.slowTraced = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? AND phase_idx = ? AND trace_seq IS NOT NULL ORDER BY ${TOTAL} DESC LIMIT ?`).raw();
    this.slowAny = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? AND phase_idx = ? ORDER BY ${TOTAL} DESC LIMIT ?`).raw();
    // one seek and one range on requests_phase_intended (migration 21); the plan is held by db/first-requests.test.ts
    this.firstIntended = db.prepare('SELECT min(intended_us) FROM requests WHERE target_id = ? AND phase_idx = ?').pluck();
    this.firstCount = db.prepare('SELECT count(*) FROM requests WHERE target_id = ? AND phase_idx = ? AND intended_us = ?').pluck();
    this.firstRows = db.prepare(`SELECT ${COLUMNS} FROM requests WHERE target_id = ? AND phase_idx = ? AND intended_us = ? LIMIT ${FIRST_REQUESTS_MAX}`).raw();
  }

  /** How many rows of the server run are stored. */
  stored(targetId: number, where: string): number {
    return n(this.tableCount.get(targetId), where) + n(this.packCount.get(targetId), where);
  }

  /** Every stored row of the server run, in the order recorded; a page or a batch held at a time. */
  *rows(targetId: number, where: string): IterableIterator<RequestRow> {
    yield* this.tableRows(targetId, where);
    for (const c of this.packedRows(targetId, where)) yield readRow(c.values, c.at);
  }

  private *tableRows(targetId: number, where: string): IterableIterator<RequestRow> {
    let after = 0;
    for (;;) {
      const page = this.tablePage.all(targetId, after);
      for (const raw of page) {
        if (!Array.isArray(raw)) throw damaged(where, 'not a row');
        const cols: unknown[] = raw;
        after = n(cols[0], where);
        yield toRow(raw, where);
      }
      if (page.length < PAGE) break;
    }
  }

  /** At most `limit` of a server run's stored rows, evenly spaced over them in recorded order (all when fewer), and how many are stored. */
  evenRows(targetId: number, limit: number, where: string): { rows: RequestRow[]; stored: number } {
    const stored = this.stored(targetId, where);
    if (this.hasPacks.get(targetId) === undefined) {
      const found = stored <= limit ? this.all.all(targetId) : this.evenlySpacedIds(targetId, limit, stored, where).map((id) => this.byId.get(id));
      return { rows: found.map((raw) => toRow(raw, where)), stored };
    }
    // a row object only for a row kept
    const rows: RequestRow[] = [];
    let i = 0;
    const kept = () => stored <= limit || (i++ * limit) % stored < limit;
    for (const row of this.tableRows(targetId, where)) if (kept()) rows.push(row);
    for (const c of this.packedRows(targetId, where)) if (kept()) rows.push(readRow(c.values, c.at));
    return { rows, stored };
  }

  /**
   * Each phase's `limit` slowest stored rows (total time), slowest first: among the rows sent with a
   * trace id when `traced` and there are any, else among all; packed rows in one scan for all phases.
   */
  slowest(targetId: number, phaseIdxs: readonly number[], limit: number, traced: boolean, where: string): Map<number, RequestRow[]> {
    const out = new Map<number, RequestRow[]>();
    if (this.hasPacks.get(targetId) === undefined) {
      for (const phaseIdx of phaseIdxs) {
        const found = traced ? this.slowTraced.all(targetId, phaseIdx, limit) : [];
        out.set(phaseIdx, (found.length > 0 ? found : this.slowAny.all(targetId, phaseIdx, limit)).map((raw) => toRow(raw, where)));
      }
      return out;
    }
    // a pack at a time, no row object made for a row that is not among the slowest
    const tops = new Map(phaseIdxs.map((p) => [p, { traced: [] as RequestRow[], any: [] as RequestRow[] }]));
    for (const values of this.packValues(targetId, where)) {
      for (let o = 0; o < values.length; o += REQUEST_STRIDE) {
        const phase = tops.get(values[o + COL.phaseIdx]!);
        if (phase === undefined) continue;
        const total = values[o + COL.doneUs]! - values[o + COL.intendedUs]!;
        keepSlowest(phase.any, limit, total, values, o);
        if (traced && !Number.isNaN(values[o + COL.traceSeq])) keepSlowest(phase.traced, limit, total, values, o);
      }
    }
    for (const [phaseIdx, top] of tops) out.set(phaseIdx, top.traced.length > 0 ? top.traced : top.any);
    return out;
  }

  /**
   * Each phase's rows at its first intended time (at most FIRST_REQUESTS_MAX) and how many are stored,
   * for the phases asked that have rows; packed rows in one scan for all of them.
   */
  firsts(targetId: number, phaseIdxs: readonly number[], where: string): Map<number, FirstRows> {
    const out = new Map<number, FirstRows>();
    if (this.hasPacks.get(targetId) === undefined) {
      for (const phaseIdx of phaseIdxs) {
        const first: unknown = this.firstIntended.get(targetId, phaseIdx);
        if (typeof first !== 'number') continue;
        out.set(phaseIdx, { rows: this.firstRows.all(targetId, phaseIdx, first).map((raw) => toRow(raw, where)), stored: n(this.firstCount.get(targetId, phaseIdx, first), where) });
      }
      return out;
    }
    const state = new Map(phaseIdxs.map((p) => [p, { first: Infinity, rows: [] as RequestRow[], stored: 0 }]));
    for (const values of this.packValues(targetId, where)) {
      for (let o = 0; o < values.length; o += REQUEST_STRIDE) {
        const phase = state.get(values[o + COL.phaseIdx]!);
        const intended = values[o + COL.intendedUs]!;
        if (phase === undefined || intended > phase.first) continue;
        if (intended < phase.first) {
          phase.first = intended;
          phase.stored = 0;
          phase.rows = [];
        }
        phase.stored++;
        if (phase.rows.length < FIRST_REQUESTS_MAX) phase.rows.push(readRow(values, o / REQUEST_STRIDE));
      }
    }
    for (const [phaseIdx, { rows, stored }] of state) if (stored > 0) out.set(phaseIdx, { rows, stored });
    return out;
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

  /** Every pack's values, checked, PACK_PAGE packs a page, in no particular order of rows (for reads that do not need one). */
  private *packValues(targetId: number, where: string): IterableIterator<Float64Array> {
    let after = 0;
    for (;;) {
      const page = this.packPage.all(targetId, after);
      for (const raw of page) {
        const pack = toPack(raw, where);
        after = pack.id;
        yield unpack(pack.data, pack.rows, where);
      }
      if (page.length < PACK_PAGE) break;
    }
  }

  /** The packs' rows, PACK_PAGE packs a page; a batch's packs (one seq0, consecutive ids) merged back into recorded order. */
  private *packedRows(targetId: number, where: string): IterableIterator<Cursor> {
    let after = 0;
    let batch: Pack[] = [];
    for (;;) {
      const page = this.packPage.all(targetId, after);
      for (const raw of page) {
        const pack = toPack(raw, where);
        after = pack.id;
        if (batch.length > 0 && batch[0]!.seq0 !== pack.seq0) {
          yield* merged(batch, where);
          batch = [];
        }
        batch.push(pack);
      }
      if (page.length < PACK_PAGE) break;
    }
    if (batch.length > 0) yield* merged(batch, where);
  }
}

/** Puts the row at offset `o` of `values` into `top` (slowest first, at most `limit`) when it is slower than its last. */
function keepSlowest(top: RequestRow[], limit: number, total: number, values: Float64Array, o: number): void {
  if (top.length === limit && total <= totalOf(top[limit - 1]!)) return;
  let at = top.length;
  while (at > 0 && totalOf(top[at - 1]!) < total) at--;
  top.splice(at, 0, readRow(values, o / REQUEST_STRIDE));
  if (top.length > limit) top.pop();
}

/** Row `at` of a pack's `values`: one object, moved from row to row (no object made a row). */
interface Cursor {
  values: Float64Array;
  at: number;
}

/** One batch's packs as its rows in recorded order: row i of the batch sits in the pack of level levelOf(seq0 + i). */
function* merged(batch: Pack[], where: string): IterableIterator<Cursor> {
  const { seq0, batchRows } = batch[0]!;
  const byLevel = new Map<number, { values: Float64Array; rows: number; next: number }>();
  for (const p of batch) {
    if (p.batchRows !== batchRows || byLevel.has(p.lvl)) throw damaged(where, `the request packs of the batch from row ${seq0} disagree on its rows or repeat level ${p.lvl}`);
    byLevel.set(p.lvl, { values: unpack(p.data, p.rows, where), rows: p.rows, next: 0 });
  }
  // counted first, so a pack that does not fit its batch is refused before any of its rows is given
  for (let i = 0; i < batchRows; i++) {
    const pack = byLevel.get(levelOf(seq0 + i));
    if (pack !== undefined) pack.next++;
  }
  for (const [lvl, pack] of byLevel) {
    if (pack.next !== pack.rows) throw damaged(where, `the request pack of level ${lvl} of the batch from row ${seq0} holds ${pack.rows} rows; its level has ${pack.next}`);
    pack.next = 0;
  }
  const cursor: Cursor = { values: new Float64Array(0), at: 0 };
  for (let i = 0; i < batchRows; i++) {
    const pack = byLevel.get(levelOf(seq0 + i));
    if (pack === undefined) continue;
    cursor.values = pack.values;
    cursor.at = pack.next++;
    yield cursor;
  }
}
