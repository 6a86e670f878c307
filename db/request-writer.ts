import type Database from 'better-sqlite3';
import { LoadscopeError } from '../contract/errors.js';
import { REQUEST_STRIDE } from '../contract/measurement.js';
import { levelOf, PACK_ROW_BYTES, packRow } from './request-pack.js';

// Writes raw request batches (layout: contract/measurement.ts) under a per-run cap, append-only.
//
// Sampling by level: row number s of a run (0-based, over all its targets) gets the level
// clz32(mix(s)), so P(level >= L) = 2^-L, independent of when it arrived. The run keeps exactly the
// rows with level >= runs.raw_level. While the run is under its cap the level is 0 (every row kept);
// when a batch takes it over, the level goes up one step at a time (each step drops about half the
// stored rows, deleting whole packs in the same transaction) until it is back under the cap. So the
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

// A batch goes in as one pack per sampling level it has rows of (db/request-pack.ts; about log2 of
// its size: half its rows are level 0, a quarter level 1, ...): one INSERT of a blob each instead of
// one row each, so SQLite's per-row cost is paid per pack, and a purge still deletes whole packs.
const LEVELS = 33;
/** a row below the run's level: checked, not kept */
const DROPPED = 255;

interface RunSampling {
  cap: number;
  /** rows recorded for the run so far (stored or not) */
  seen: number;
  level: number;
  /** stored rows of the run by level */
  counts: number[];
}

export class RequestWriter {
  private readonly runs = new Map<number, RunSampling>();
  private readonly targetRuns = new Map<number, number>();
  private readonly insertPack: Database.Statement;
  private readonly runOfTarget: Database.Statement;
  private readonly runState: Database.Statement;
  private readonly levelCounts: Database.Statement;
  private readonly purgeRows: Database.Statement;
  private readonly purgePacks: Database.Statement;
  private readonly setLevel: Database.Statement;
  private readonly addRaw: Database.Statement;
  private readonly markSampled: Database.Statement;
  /** reused between batches, grown to the largest: each row's level, the rows per level, the packed rows */
  private levels = new Uint8Array(0);
  private readonly perLevel = new Int32Array(LEVELS);
  private readonly nextAt = new Int32Array(LEVELS);
  private packed = new Float64Array(0);
  private readonly scratch = new Float64Array(REQUEST_STRIDE);

  constructor(private readonly db: Database.Database) {
    this.insertPack = db.prepare('INSERT INTO request_packs (target_id, lvl, seq0, batch_rows, rows, data) VALUES (?, ?, ?, ?, ?, ?)');
    this.runOfTarget = db.prepare('SELECT run_id FROM targets WHERE id = ?').pluck();
    this.runState = db.prepare(
      'SELECT r.raw_cap AS cap, r.raw_level AS level, (SELECT coalesce(sum(raw_rows), 0) FROM targets WHERE run_id = r.id) AS seen FROM runs r WHERE r.id = ?',
    );
    // rows stored before migration 28 count with the packs (a run is written by one version, but a
    // store must not depend on it)
    this.levelCounts = db
      .prepare(
        `SELECT lvl, sum(n) FROM (
           SELECT q.lvl AS lvl, count(*) AS n FROM requests q JOIN targets t ON t.id = q.target_id WHERE t.run_id = @run GROUP BY q.lvl
           UNION ALL SELECT p.lvl, sum(p.rows) FROM request_packs p JOIN targets t ON t.id = p.target_id WHERE t.run_id = @run GROUP BY p.lvl)
         GROUP BY lvl`,
      )
      .raw();
    this.purgeRows = db.prepare('DELETE FROM requests WHERE target_id IN (SELECT id FROM targets WHERE run_id = ?) AND lvl < ?');
    this.purgePacks = db.prepare('DELETE FROM request_packs WHERE target_id IN (SELECT id FROM targets WHERE run_id = ?) AND lvl < ?');
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
    const seq0 = seen;
    let stored = counts.reduce((a, b) => a + b, 0);
    if (this.levels.length < rowCount) this.levels = new Uint8Array(rowCount);
    const { levels, perLevel, nextAt } = this;
    perLevel.fill(0);
    let kept = 0;
    for (let row = 0; row < rowCount; row++) {
      const lvl = levelOf(seen++);
      if (lvl < level || cap === 0) {
        packRow(this.scratch, 0, data, row); // checked even when not kept: a bad batch fails whatever its sample
        levels[row] = DROPPED;
        continue;
      }
      levels[row] = lvl;
      perLevel[lvl]++;
      kept++;
    }
    if (kept > 0) {
      // the packs one after another in `packed`, level by level; each row goes to the next place of its level
      if (this.packed.length < kept * REQUEST_STRIDE) this.packed = new Float64Array(kept * REQUEST_STRIDE);
      const packed = this.packed;
      for (let l = 0, at = 0; l < LEVELS; l++) {
        nextAt[l] = at;
        at += perLevel[l]!;
      }
      for (let row = 0; row < rowCount; row++) {
        const lvl = levels[row]!;
        if (lvl !== DROPPED) packRow(packed, nextAt[lvl]++, data, row);
      }
      for (let l = 0, at = 0; l < LEVELS; l++) {
        const n = perLevel[l]!;
        if (n === 0) continue;
        this.insertPack.run(targetId, l, seq0, rowCount, n, Buffer.from(packed.buffer, packed.byteOffset + at * PACK_ROW_BYTES, n * PACK_ROW_BYTES));
        at += n;
        counts[l] += n;
        stored += n;
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
        this.purgeRows.run(runId, level);
        this.purgePacks.run(runId, level);
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
    for (const entry of this.levelCounts.all({ run: runId })) {
      if (Array.isArray(entry)) {
        const [lvl, n]: unknown[] = entry;
        if (typeof lvl === 'number' && lvl >= 0 && lvl < LEVELS) counts[lvl] = Number(n);
      }
    }
    return { cap: Number(r.get('cap')), seen: Number(r.get('seen')), level: Number(r.get('level')), counts };
  }
}
