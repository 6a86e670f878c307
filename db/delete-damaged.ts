import type Database from 'better-sqlite3';
import { LoadscopeError } from '../contract/errors.js';
import { describeDbError, sqliteCode } from './store-faults.js';
import { isDamage } from './list-damaged.js';

// A run whose measurements sit on a damaged page cannot go by the cascade: SQLite cannot find or
// read those rows, so `DELETE FROM runs` fails (SQLITE_CORRUPT) or leaves them behind and fails
// the foreign key check. Such a run is deleted piece by piece, with foreign keys off for that delete
// only: every row of it that can still be reached through an index is deleted, rows on the damaged
// page stay where they are (unreachable, as before), and nothing of any other run is touched.
// The other runs whose rows share that page keep them and stay damaged (listed and marked).

/** The cascade's own failures on a damaged file: a damaged page, or children it could not delete. */
export function isDamagedDelete(err: unknown): boolean {
  return isDamage(err) || sqliteCode(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** A run's measurements, by target: each table with the columns that find one row of it. */
const CHILDREN = [
  { table: 'requests', key: 'rowid', index: 'requests_phase_intended' },
  { table: 'request_packs', key: 'rowid', index: 'request_packs_target' },
  { table: 'windows', key: 'rowid', index: 'windows_target' },
  { table: 'samples', key: 'rowid', index: 'samples_target' },
  { table: 'phases', key: 'idx', index: null },
  { table: 'thresholds', key: 'idx', index: null },
  { table: 'compare_samples', key: 'rowid', index: null },
] as const;

/** Runs `sql` as a transaction of its own; false when a damaged page stops it (SQLite undoes it). */
function tryRun(db: Database.Database, sql: string, ...params: (number | string)[]): boolean {
  try {
    db.prepare(sql).run(...params);
    return true;
  } catch (err) {
    if (isDamage(err)) return false;
    throw err;
  }
}

function tryIds(db: Database.Database, sql: string, ...params: number[]): number[] {
  try {
    return db.prepare(sql).pluck().all(...params).filter((v): v is number => typeof v === 'number');
  } catch (err) {
    if (isDamage(err)) return [];
    throw err;
  }
}

/** Deletes these rows, halving the set around whatever fails: rows on one damaged page are neighbours, so few tries fail. */
function deleteRows(db: Database.Database, table: string, key: string, targetId: number, keys: readonly number[]): void {
  if (keys.length === 0) return;
  if (tryRun(db, `DELETE FROM ${table} WHERE target_id = ? AND ${key} IN (SELECT value FROM json_each(?))`, targetId, JSON.stringify(keys))) return;
  if (keys.length === 1) return; // on the damaged page: unreachable, and stays so
  const half = Math.ceil(keys.length / 2);
  deleteRows(db, table, key, targetId, keys.slice(0, half));
  deleteRows(db, table, key, targetId, keys.slice(half));
}

/**
 * Deletes what can be reached of the run, its row last; false when there is no such run. Statement
 * by statement, not one transaction: SQLite ends a whole transaction at the first damaged page it
 * meets while writing, so one transaction could not step past it. Throws LS_ERR_DB when the run's
 * own row cannot be removed (its measurements are gone by then; it stays listed as damaged).
 */
export function deleteDamagedRun(db: Database.Database, runId: number): boolean {
  db.pragma('foreign_keys = OFF'); // this connection only, for this delete
  try {
    const targets = [
      ...new Set([
        ...tryIds(db, 'SELECT id FROM targets INDEXED BY targets_run WHERE run_id = ?', runId),
        ...tryIds(db, 'SELECT id FROM targets NOT INDEXED WHERE run_id = ?', runId),
      ]),
    ];
    for (const targetId of targets) {
      for (const { table, key, index } of CHILDREN) {
        if (tryRun(db, `DELETE FROM ${table} WHERE target_id = ?`, targetId)) continue;
        // found through the index, so one damaged page of the table does not keep the rest
        const keys = tryIds(db, `SELECT ${key} FROM ${table}${index === null ? '' : ` INDEXED BY ${index}`} WHERE target_id = ?`, targetId);
        deleteRows(db, table, key, targetId, keys);
      }
      tryRun(db, 'DELETE FROM targets WHERE id = ?', targetId);
    }
    tryRun(db, 'DELETE FROM cells WHERE run_id = ?', runId);
    try {
      return db.prepare('DELETE FROM runs WHERE id = ?').run(runId).changes > 0;
    } catch (err) {
      if (!isDamage(err)) throw err;
      throw cannotRemove(runId, describeDbError(err));
    }
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

export function cannotRemove(runId: number, why: string): LoadscopeError {
  return new LoadscopeError(
    'LS_ERR_DB',
    `run ${runId} cannot be deleted: its own row sits on a damaged page of the database (${why}); the other runs are readable; \`sqlite3 <db> .recover\` rebuilds the file from what can be read`,
  );
}
