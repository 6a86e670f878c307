import type { Migration } from './migration.js';

// Issue 35: a response the client refused to parse is a 'protocol' error, and a phase keeps why its
// requests failed. The error column's CHECK lists the kinds, and SQLite cannot change a CHECK in
// place, so the requests table is rebuilt as migration 13 did (new table, copy, drop, rename, index
// again); each kind stays text, so stored rows keep their meaning. phases.error_reasons_json holds
// contract/results.ts ErrorReason[] (NULL: no error with a reason, or stored before this).
export const migration019: Migration = {
  version: 19,
  description: "'protocol' errors in request rows; phases.error_reasons_json",
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
        error          TEXT CHECK (error IN ('refused', 'reset', 'timeout', 'http', 'body', 'other', 'extract', 'protocol')),
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
      ALTER TABLE phases ADD COLUMN error_reasons_json TEXT;
    `);
  },
};
