import type { Migration } from './migration.js';

// A baseline per scenario and profile (quick or full): the run a new run of that scenario is
// judged against (`loadscope run --baseline`). Deleting the run unpins it.
export const migration011: Migration = {
  version: 11,
  description: 'baselines: one pinned run per scenario name and profile',
  up(db) {
    db.exec(`
      CREATE TABLE baselines (
        scenario_name TEXT NOT NULL,
        profile TEXT NOT NULL CHECK (profile IN ('quick', 'full')),
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        pinned_at TEXT NOT NULL,
        PRIMARY KEY (scenario_name, profile)
      );
      CREATE INDEX baselines_run ON baselines (run_id);
    `);
  },
};
