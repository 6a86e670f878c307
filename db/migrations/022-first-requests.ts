import type { Migration } from './migration.js';

// The late-admission rule (issue 38) reads each closed phase's users' first requests: the rows
// intended at the phase's first intended time (db/first-requests.ts). Without an index on intended
// time that is a scan of the server run's rows (up to the raw cap) per phase; with this one, two
// seeks. It REPLACES requests_target rather than joining it: (target_id, ...) still serves every
// lookup by server run, and the writer keeps one b-tree to append to, not two (what each costs the
// writer: docs/performance.md, "Figures behind the code").
export const migration022: Migration = {
  version: 22,
  description: "requests_phase_intended replaces requests_target: a server run's requests by phase and intended time (users' first requests)",
  up(db) {
    db.exec('CREATE INDEX requests_phase_intended ON requests (target_id, phase_idx, intended_us); DROP INDEX requests_target;');
  },
};
