import type { Migration } from './migration.js';

// Issue 39: a response that fails a check of its request's expect (contract/checks.ts) is a 'check'
// error. The error column's CHECK lists the kinds, and SQLite cannot change a CHECK in place, so the
// requests table is rebuilt as migrations 13 and 19 did (new table, copy, drop, rename, index
// again), trace_seq (23) and both indexes (22's requests_phase_intended, 23's requests_slowest)
// included; each kind stays text, so stored rows keep their meaning. The checks' own counts (per
// endpoint, per check) live in phases.endpoints_json with each endpoint: no column needed.
export const migration025: Migration = {
  version: 25,
  description: "'check' errors in request rows",
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
        error          TEXT CHECK (error IN ('refused', 'reset', 'timeout', 'http', 'body', 'other', 'extract', 'protocol', 'check')),
        server_wait_us INTEGER,
        server_proc_us INTEGER,
        lvl            INTEGER NOT NULL DEFAULT 0,
        template_idx   INTEGER NOT NULL DEFAULT 0,
        trace_seq      INTEGER
      );
      INSERT INTO requests_new (id, target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us, lvl, template_idx, trace_seq)
        SELECT id, target_id, phase_idx, client_idx, intended_us, sent_us, first_byte_us, done_us, status, bytes, error, server_wait_us, server_proc_us, lvl, template_idx, trace_seq FROM requests;
      DROP TABLE requests;
      ALTER TABLE requests_new RENAME TO requests;
      CREATE INDEX requests_phase_intended ON requests (target_id, phase_idx, intended_us);
      CREATE INDEX requests_slowest ON requests (target_id, phase_idx, (done_us - intended_us)) WHERE trace_seq IS NOT NULL;
    `);
  },
};
