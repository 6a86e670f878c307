import type { Migration } from './migration.js';

// Journeys (issue 26): a step whose extraction found nothing is an 'extract' error. The error
// column's CHECK (migration 1) lists the kinds, and SQLite cannot change a CHECK in place, so the
// requests table is rebuilt with the same columns and rows (SQLite's documented way: new table,
// copy, drop, rename, index again). Each kind stays text, so stored rows keep their meaning.
export const migration013: Migration = {
  version: 13,
  description: "'extract' errors in request rows",
  up(db) {
    db.exec(`
      CREATE TABLE requests_new (
        id             INTEGER PRIMARY KEY,
        target_id      INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        phase_idx      INTEGER NOT NULL,
        client_idx     INTEGER NOT NULL,
        intended_us    INTEGER NOT NULL,
        sent_us        INTEGER,
        first_byte_us  INTEGER,
        done_us        INTEGER NOT NULL,
        status         INTEGER NOT NULL,
        bytes          INTEGER NOT NULL,
        error          TEXT CHECK (error IN ('refused', 'reset', 'timeout', 'http', 'body', 'other', 'extract')),
        server_wait_us INTEGER,
        server_proc_us INTEGER,
        lvl            INTEGER NOT NULL DEFAULT 0,
        template_idx   INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO requests_new (id, target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us, lvl, template_idx)
        SELECT id, target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us, lvl, template_idx FROM requests;
      DROP TABLE requests;
      ALTER TABLE requests_new RENAME TO requests;
      CREATE INDEX requests_target ON requests (target_id);
    `);
  },
};
