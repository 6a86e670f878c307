import type { Migration } from './migration.js';

// Issue 41, streams (contract/stream.ts): a request row may hold a 'stream' (cut short), 'idle' (no
// message within its limit) or 'grpc' (a status other than OK) error. The error column's CHECK lists
// the kinds, and SQLite cannot change a CHECK in place, so the requests table is rebuilt as 13, 19
// and 25 did (new table, copy, drop, rename, both indexes again); stored rows keep their meaning.
// A phase's stream figures (contract/results.ts StreamFigures) and a window's (StreamWindow) are
// JSON beside the others, NULL where there was no stream (every run before this); an endpoint's
// live in phases.endpoints_json with it, as its checks do.
export const migration027: Migration = {
  version: 27,
  description: "stream errors in request rows; phases.stream_json and windows.stream_json",
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
        error          TEXT CHECK (error IN ('refused', 'reset', 'timeout', 'http', 'body', 'other', 'extract', 'protocol', 'check', 'stream', 'idle', 'grpc')),
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
      ALTER TABLE phases ADD COLUMN stream_json TEXT;
      ALTER TABLE windows ADD COLUMN stream_json TEXT;
    `);
  },
};
