import type Database from 'better-sqlite3';
import { ERROR_KINDS } from '../contract/results.js';
import { LoadscopeError } from '../contract/errors.js';
import { COL, NO_ERROR, REQUEST_COLUMNS, REQUEST_STRIDE } from '../contract/measurement.js';

// Writes raw request batches (layout: contract/measurement.ts) under a per-run cap, append-only.
//
// Sampling by level: row number s of a run (0-based, over all its targets) gets the level
// clz32(mix(s)), so P(level >= L) = 2^-L, independent of when it arrived. The run keeps exactly the
// rows with level >= runs.raw_level. While the run is under its cap the level is 0 (every row kept);
// when a batch takes it over, the level goes up one step at a time (each step drops about half the
// stored rows, in one bulk DELETE in the same transaction) until it is back under the cap. So the
// stored rows are always a uniform sample of the whole run (early and late phases, every target
// alike), between about cap/2 and cap of them; rows below the level are never written at all, and
// the write path never updates rows in place (random updates fell behind the driver: docs/performance.md, "Figures behind the code").
//
//   level:      0   1   2   3  ...        raw_level = 2:  rows of level 0 and 1 are dropped;
//   P(level>=L) 1  1/2 1/4 1/8            a quarter of all rows are kept, evenly over the run
//
// The in-memory state is a cache of the database (seen = sum of targets.raw_rows, level =
// runs.raw_level, counts per level) and is dropped when a batch fails, so a rolled-back batch leaves
// no trace in it. One writer per run is assumed (the engine that runs it).

// Rows go in by multi-row INSERTs of these sizes, largest first (a batch of 600 rows: 2 x 256,
// 2 x 32, 6 x 4): fewer statement runs than one size and its remainder row by row (per row, a
// statement run costs about what binding its 15 values does). 256 x 15 values is far below SQLite's
// 32,766 parameters.
const CHUNKS = [256, 32, 4, 1] as const;
const CHUNK = CHUNKS[0];
// id, target_id, the request columns in their order, lvl: parameter k + 2 + COL[name] holds a column.
const INSERT_COLUMNS = ['id', 'target_id', ...REQUEST_COLUMNS.map((c) => c.sql), 'lvl'].join(', ');
const PER_ROW = REQUEST_STRIDE + 3;
const LEVELS = 33;

interface RunSampling {
  cap: number;
  /** rows recorded for the run so far (stored or not) */
  seen: number;
  level: number;
  /** stored rows of the run by level */
  counts: number[];
}

type Params = (number | string | null)[];

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

export function levelOf(rowNumber: number): number {
  return Math.clz32(mix(rowNumber + 1));
}

function required(value: number, name: string, row: number): number {
  if (!Number.isFinite(value)) throw new LoadscopeError('LS_ERR_INTERNAL', `raw request row ${row} of the batch has ${name} ${value}; it must be a finite number`);
  return value;
}

function optionalUs(value: number): number | null {
  return Number.isFinite(value) ? Math.round(value) : null;
}

const { phaseIdx, clientIdx, intendedUs, sentUs, firstByteUs, doneUs, status, bytes, error, serverWaitUs, serverProcUs, templateIdx, traceSeq } = COL;

/** Writes row `row` of `data` into p[k..k+REQUEST_STRIDE]: target_id and the request columns; throws on a bad row. */
function fill(p: Params, k: number, targetId: number, data: Float64Array, row: number): void {
  const o = row * REQUEST_STRIDE;
  const c = k + 1;
  p[k] = targetId;
  p[c + phaseIdx] = required(data[o + phaseIdx], 'phaseIdx', row);
  p[c + clientIdx] = required(data[o + clientIdx], 'clientIdx', row);
  p[c + intendedUs] = Math.round(required(data[o + intendedUs], 'intendedUs', row));
  p[c + sentUs] = optionalUs(data[o + sentUs]);
  p[c + firstByteUs] = optionalUs(data[o + firstByteUs]);
  p[c + doneUs] = Math.round(required(data[o + doneUs], 'doneUs', row));
  p[c + status] = required(data[o + status], 'status', row);
  p[c + bytes] = required(data[o + bytes], 'bytes', row);
  const code = data[o + error];
  if (code === NO_ERROR) p[c + error] = null;
  else if (Number.isInteger(code) && code >= 0 && code < ERROR_KINDS.length) p[c + error] = ERROR_KINDS[code];
  else throw new LoadscopeError('LS_ERR_INTERNAL', `raw request row ${row} of the batch has error code ${code}; expected -1 or 0..${ERROR_KINDS.length - 1}`);
  p[c + serverWaitUs] = optionalUs(data[o + serverWaitUs]);
  p[c + serverProcUs] = optionalUs(data[o + serverProcUs]);
  p[c + templateIdx] = required(data[o + templateIdx], 'templateIdx', row);
  // NaN: its phase did not trace (contract/trace-context.ts)
  p[c + traceSeq] = Number.isFinite(data[o + traceSeq]) ? data[o + traceSeq]! : null;
}

export class RequestWriter {
  private readonly runs = new Map<number, RunSampling>();
  private readonly targetRuns = new Map<number, number>();
  /** one INSERT per size of CHUNKS, in that order, and its parameter array (reused) */
  private readonly inserts: { rows: number; stmt: Database.Statement; params: Params }[];
  private readonly maxId: Database.Statement;
  private readonly runOfTarget: Database.Statement;
  private readonly runState: Database.Statement;
  private readonly levelCounts: Database.Statement;
  private readonly purge: Database.Statement;
  private readonly setLevel: Database.Statement;
  private readonly addRaw: Database.Statement;
  private readonly markSampled: Database.Statement;
  private readonly chunkParams: Params = new Array<number | string | null>(CHUNK * PER_ROW).fill(null);
  private readonly scratch: Params = new Array<number | string | null>(PER_ROW).fill(null);

  constructor(private readonly db: Database.Database) {
    const values = (n: number) => Array.from({ length: n }, () => `(${'?,'.repeat(PER_ROW - 1)}?)`).join(',');
    this.inserts = CHUNKS.map((rows) => ({ rows, stmt: db.prepare(`INSERT INTO requests (${INSERT_COLUMNS}) VALUES ${values(rows)}`), params: rows === CHUNK ? this.chunkParams : new Array<number | string | null>(rows * PER_ROW).fill(null) }));
    this.maxId = db.prepare('SELECT coalesce(max(id), 0) FROM requests').pluck();
    this.runOfTarget = db.prepare('SELECT run_id FROM targets WHERE id = ?').pluck();
    this.runState = db.prepare(
      'SELECT r.raw_cap AS cap, r.raw_level AS level, (SELECT coalesce(sum(raw_rows), 0) FROM targets WHERE run_id = r.id) AS seen FROM runs r WHERE r.id = ?',
    );
    this.levelCounts = db.prepare('SELECT q.lvl, count(*) FROM requests q JOIN targets t ON t.id = q.target_id WHERE t.run_id = ? GROUP BY q.lvl').raw();
    this.purge = db.prepare('DELETE FROM requests WHERE target_id IN (SELECT id FROM targets WHERE run_id = ?) AND lvl < ?');
    this.setLevel = db.prepare('UPDATE runs SET raw_level = ? WHERE id = ?');
    this.addRaw = db.prepare('UPDATE targets SET raw_rows = raw_rows + ? WHERE id = ?');
    this.markSampled = db.prepare('UPDATE targets SET raw_sampled = 1 WHERE run_id = ? AND raw_rows > 0 AND raw_sampled = 0');
  }

  /** Stores rows [0, rowCount) of `data` for a target in one transaction; all or nothing. */
  insert(targetId: number, data: Float64Array, rowCount = Math.floor(data.length / REQUEST_STRIDE)): void {
    if (!Number.isInteger(rowCount) || rowCount < 0 || rowCount * REQUEST_STRIDE > data.length) {
      throw new LoadscopeError('LS_ERR_INTERNAL', `raw request batch of ${data.length} numbers cannot hold ${rowCount} rows of ${REQUEST_STRIDE}`);
    }
    if (rowCount === 0) return;
    const runId = this.runFor(targetId);
    const write = this.db.transaction(() => this.write(runId, targetId, data, rowCount));
    try {
      this.runs.set(runId, write.immediate());
    } catch (err) {
      this.runs.delete(runId);
      throw err;
    }
  }

  /** Forgets cached state of a run (after it is deleted). */
  forget(runId: number): void {
    this.runs.delete(runId);
    for (const [target, run] of this.targetRuns) if (run === runId) this.targetRuns.delete(target);
  }

  private write(runId: number, targetId: number, data: Float64Array, rowCount: number): RunSampling {
    const before = this.runs.get(runId) ?? this.load(runId);
    const { cap } = before;
    const counts = before.counts.slice();
    let { seen, level } = before;
    let id = Number(this.maxId.get()) + 1;
    let stored = counts.reduce((a, b) => a + b, 0);
    const p = this.chunkParams;
    let inChunk = 0;
    for (let row = 0; row < rowCount; row++) {
      const lvl = levelOf(seen++);
      if (lvl < level || cap === 0) {
        fill(this.scratch, 0, targetId, data, row); // checked even when not kept: a bad batch fails whatever its sample
        continue;
      }
      const k = inChunk * PER_ROW;
      p[k] = id++;
      fill(p, k + 1, targetId, data, row);
      p[k + PER_ROW - 1] = lvl;
      counts[lvl]++;
      stored++;
      if (++inChunk === CHUNK) {
        this.inserts[0]!.stmt.run(p);
        inChunk = 0;
      }
    }
    // the rest, in the smaller sizes
    let from = 0;
    for (const { rows, stmt, params } of this.inserts) {
      if (rows === CHUNK) continue;
      while (inChunk - from >= rows) {
        for (let c = 0; c < rows * PER_ROW; c++) params[c] = p[from * PER_ROW + c];
        stmt.run(params);
        from += rows;
      }
    }
    this.addRaw.run(rowCount, targetId);
    if (stored > cap && cap > 0) {
      const from = level;
      while (stored > cap && level < LEVELS) {
        stored -= counts[level];
        counts[level] = 0;
        level++;
      }
      if (level > from) {
        this.purge.run(runId, level);
        this.setLevel.run(level, runId);
      }
    }
    if (level > 0 || cap === 0) this.markSampled.run(runId);
    return { cap, seen, level, counts };
  }

  private runFor(targetId: number): number {
    const known = this.targetRuns.get(targetId);
    if (known !== undefined) return known;
    const runId = this.runOfTarget.get(targetId);
    if (typeof runId !== 'number') throw new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no server run (target) ${targetId}; \`loadscope list\` shows the stored runs`);
    this.targetRuns.set(targetId, runId);
    return runId;
  }

  private load(runId: number): RunSampling {
    const row: unknown = this.runState.get(runId);
    if (typeof row !== 'object' || row === null) throw new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no run ${runId}; \`loadscope list\` shows the stored runs`);
    const r = new Map(Object.entries(row));
    const counts = new Array<number>(LEVELS).fill(0);
    for (const entry of this.levelCounts.all(runId)) {
      if (Array.isArray(entry)) {
        const [lvl, n]: unknown[] = entry;
        if (typeof lvl === 'number' && lvl >= 0 && lvl < LEVELS) counts[lvl] = Number(n);
      }
    }
    return { cap: Number(r.get('cap')), seen: Number(r.get('seen')), level: Number(r.get('level')), counts };
  }
}
