import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { ErrorKindName } from '../../contract/error-kinds.js';
import { schemaVersion } from '../migrate.js';
import { SCHEMA_VERSION } from '../migrations/index.js';
import { openStore } from '../store.js';
import { databaseAt, insertOldRun } from './old-database.js';

// A migration that rebuilds the requests table to let a new error kind through its CHECK (13:
// 'extract', 19: 'protocol') must lose nothing on the way: the check every such migration's test makes.

const COLUMNS = 'id, target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us, lvl, template_idx';

/** a raw row's error kind and the status it was stored with */
export interface ErrorRow {
  error: ErrorKindName;
  status: number;
}

export interface RequestsRebuild {
  /** the schema version just before the migration */
  from: number;
  /** a kind the old schema takes, on the last of its three rows */
  oldRow: ErrorRow;
  /** the kind the migration lets in: refused before it, taken after */
  newRow: ErrorRow;
}

/**
 * A database at `from` with three raw rows (no error, 'refused', `oldRow`) that refuses `newRow`,
 * then opened by this build: the schema is current, every row reads back as it was, the index on its
 * target is there again beside migration 021's (by phase and intended time) and no other, `newRow` is taken and a kind of no known name is still refused.
 */
export function expectRequestsRebuildKeepsRows(dbPath: string, { from, oldRow, newRow }: RequestsRebuild): void {
  const db = databaseAt(dbPath, from);
  expect(schemaVersion(db)).toBe(from);
  insertOldRun(db, 3);
  const insert = db.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (?, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  insert.run(7, 1, 100, 105, 900, 1000, 200, 512, null, 50, 600, 0, 1);
  insert.run(8, 2, 200, null, null, 1200, 0, 0, 'refused', null, null, 1, 0);
  insert.run(9, 3, 300, 305, 800, 1300, oldRow.status, 10, oldRow.error, null, null, 2, 2);
  expect(() => insert.run(10, 0, 0, 0, 0, 0, 200, 0, newRow.error, null, null, 0, 0)).toThrow(/CHECK constraint/);
  const before = db.prepare(`SELECT ${COLUMNS} FROM requests ORDER BY id`).all();
  db.close();

  openStore(dbPath).close();
  const after = new Database(dbPath);
  try {
    expect(schemaVersion(after)).toBe(SCHEMA_VERSION);
    expect(after.prepare(`SELECT ${COLUMNS} FROM requests ORDER BY id`).all()).toEqual(before);
    expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'requests' ORDER BY name`).all()).toEqual([{ name: 'requests_phase_intended' }, { name: 'requests_slowest' }]);
    after.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (10, 1, 0, 1, 400, 405, 800, 900, ?, 64, ?, null, null, 0, 0)`).run(newRow.status, newRow.error);
    expect(() => after.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (11, 1, 0, 0, 0, 0, 0, 0, 0, 0, 'nonsense', null, null, 0, 0)`).run()).toThrow(/CHECK constraint/);
  } finally {
    after.close();
  }
}
