import type { Migration } from './migration.js';

// The late-admission rule (issue 38) reads each closed phase's users' first requests: the rows
// intended at the phase's first intended time (db/first-requests.ts). Without an index that is a
// scan of the server run's rows (up to the raw cap) twice per phase; with this one, two seeks per
// phase whatever the run's size. The writer has one more b-tree to append to (docs/performance.md,
// "Figures behind the code"). Self-contained: a new index only.
export const migration021: Migration = {
  version: 21,
  description: "requests_phase_intended: a phase's requests by intended time (users' first requests)",
  up(db) {
    db.exec('CREATE INDEX requests_phase_intended ON requests (target_id, phase_idx, intended_us);');
  },
};
