import type { Migration } from './migration.js';

// Trace ids for the slowest requests (issue 38; contract/trace-context.ts): a server run's random
// 64-bit trace prefix, stored once (targets.trace_prefix, 16 hex), and each request's number in it
// (requests.trace_seq), so a row keeps one integer, not a 32-hex trace id. NULL where a phase did not
// send traceparent and in runs stored before this. The partial index serves "the N slowest requests
// of a phase" (db/slowest-requests.ts) for traced rows only: runs without the option pay nothing on
// insert. Self-contained: two columns and an index, nothing else altered.
export const migration023: Migration = {
  version: 23,
  description: "trace ids: targets.trace_prefix, requests.trace_seq and the slowest traced requests' index",
  up(db) {
    db.exec(`
      ALTER TABLE targets ADD COLUMN trace_prefix TEXT;
      ALTER TABLE requests ADD COLUMN trace_seq INTEGER;
      CREATE INDEX requests_slowest ON requests (target_id, phase_idx, (done_us - intended_us)) WHERE trace_seq IS NOT NULL;
    `);
  },
};
