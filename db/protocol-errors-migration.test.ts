import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import type { ErrorReason } from '../contract/results.js';
import { schemaVersion } from './migrate.js';
import { SCHEMA_VERSION } from './migrations/index.js';
import { openStore } from './store.js';
import { histograms, newRun, phaseResult, requestRow } from './test-support/factories.js';
import { useTempDir } from './test-support/temp-store.js';
import { databaseAt, insertOldRun } from './test-support/old-database.js';

// Migration 19 (issue 35): request rows may hold a 'protocol' error (a malformed answer), and a phase
// keeps why its requests failed (phases.error_reasons_json). The requests table is rebuilt for its
// CHECK; every stored row comes through it unchanged, and a phase stored before reads back with none.

const tmp = useTempDir();

const COLUMNS = 'id, target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us, lvl, template_idx';

describe("migration 19: 'protocol' errors and error reasons", () => {
  it('a version 18 database: every row kept as it was, the index on its target, protocol taken, a bad kind still refused', () => {
    const db = databaseAt(tmp.dbPath, 18);
    insertOldRun(db, 3);
    const insert = db.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (?, 1, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insert.run(7, 1, 100, 105, 900, 1000, 200, 512, null, 50, 600, 0, 1);
    insert.run(8, 2, 200, null, null, 1200, 0, 0, 'refused', null, null, 1, 0);
    insert.run(9, 3, 300, 305, 800, 1300, 200, 10, 'extract', null, null, 2, 2);
    expect(() => insert.run(10, 0, 0, 0, 0, 0, 200, 0, 'protocol', null, null, 0, 0)).toThrow(/CHECK constraint/);
    const before = db.prepare(`SELECT ${COLUMNS} FROM requests ORDER BY id`).all();
    db.close();

    openStore(tmp.dbPath).close();
    const after = new Database(tmp.dbPath);
    expect(schemaVersion(after)).toBe(SCHEMA_VERSION);
    expect(after.prepare(`SELECT ${COLUMNS} FROM requests ORDER BY id`).all()).toEqual(before);
    expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'requests'`).all()).toEqual([{ name: 'requests_target' }]);
    after.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (10, 1, 0, 1, 400, 405, 800, 900, 0, 64, 'protocol', null, null, 0, 0)`).run();
    expect(() => after.prepare(`INSERT INTO requests (${COLUMNS}) VALUES (11, 1, 0, 0, 0, 0, 0, 0, 0, 0, 'nonsense', null, null, 0, 0)`).run()).toThrow(/CHECK constraint/);
    after.close();
  });

  it("a protocol row and a phase's error reasons: stored and read back as saved; a phase without reasons has none", () => {
    const store = openStore(tmp.dbPath);
    const runId = store.createRun(newRun());
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertRequests(targetId, packRequests([requestRow(0, { error: 'protocol', status: 0 }), requestRow(1)]));
    // a reason is the server's text: stored as it came (the views escape it)
    const errorReasons: ErrorReason[] = [
      { kind: 'protocol', reason: 'HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length', count: 117187 },
      { kind: 'reset', reason: "UND_ERR_SOCKET: <b>'quoted'</b>\u001b[31m", count: 2 },
    ];
    store.savePhase(targetId, phaseResult(0, { errors: { protocol: 117187, reset: 2 }, errorReasons }), histograms());
    store.savePhase(targetId, phaseResult(1), histograms());
    store.finishRun(runId, 'completed', null);
    expect([...store.iterateRequests(runId)].map((r) => r.error)).toEqual(['protocol', null]);
    const [withReasons, without] = store.getRun(runId).targets[0]!.phases;
    expect(withReasons!.errorReasons).toEqual(errorReasons);
    expect('errorReasons' in without!).toBe(false);
    store.close();
  });
});
