import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import { schemaVersion } from './migrate.js';
import { SCHEMA_VERSION } from './migrations/index.js';
import { openStore } from './store.js';
import { newRun, requestRow } from './test-support/factories.js';
import { useTempDir } from './test-support/temp-store.js';
import { databaseAt, insertOldRun } from './test-support/old-database.js';

// Migration 13 (issue 26, journeys): request rows may hold an 'extract' error. The requests table is
// rebuilt for its CHECK; every stored row comes through it unchanged.

const tmp = useTempDir();

const COLUMNS = 'id, target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us, lvl, template_idx';

describe("migration 13: 'extract' errors", () => {
  it('keeps every row of a version 12 database as it was, and the index on its target', () => {
    const db = databaseAt(tmp.dbPath, 12);
    expect(schemaVersion(db)).toBe(12);
    insertOldRun(db, 3);
    const insert = db.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (?, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insert.run(7, 1, 100, 105, 900, 1000, 200, 512, null, 50, 600, 0, 1);
    insert.run(8, 2, 200, null, null, 1200, 0, 0, 'refused', null, null, 1, 0);
    insert.run(9, 3, 300, 305, 800, 1300, 500, 10, 'http', null, null, 2, 2);
    expect(() => insert.run(10, 0, 0, 0, 0, 0, 200, 0, 'extract', null, null, 0, 0)).toThrow(/CHECK constraint/);
    const before = db.prepare(`SELECT ${COLUMNS} FROM requests ORDER BY id`).all();
    db.close();

    openStore(tmp.dbPath).close();
    const after = new Database(tmp.dbPath);
    expect(schemaVersion(after)).toBe(SCHEMA_VERSION);
    expect(after.prepare(`SELECT ${COLUMNS} FROM requests ORDER BY id`).all()).toEqual(before);
    expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'requests'`).all()).toEqual([{ name: 'requests_target' }]);
    // the new kind is taken, a bad kind is still refused
    after.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (10, 1, 0, 1, 400, 405, 800, 900, 200, 64, 'extract', null, null, 0, 0)`).run();
    expect(() => after.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (11, 1, 0, 0, 0, 0, 0, 0, 0, 0, 'nonsense', null, null, 0, 0)`).run()).toThrow(/CHECK constraint/);
    after.close();
  });

  it("stores and reads back a row with an 'extract' error", () => {
    const store = openStore(tmp.dbPath);
    const runId = store.createRun(newRun());
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertRequests(targetId, packRequests([requestRow(0, { error: 'extract', templateIdx: 0 }), requestRow(1, { templateIdx: 1 })]));
    expect([...store.iterateRequests(runId)].map((r) => [r.error, r.templateIdx])).toEqual([['extract', 0], [null, 1]]);
    store.close();
  });
});
