import type { Migration } from './migration.js';

// A run's regression verdict (`loadscope run --baseline`, issue 36), kept with the run so History, its
// page, its exports and Trends show it, not only the exit code: contract/run-verdict.ts RunVerdict as
// JSON, with the tally History's list reads beside it. One row per run judged (each run of a repeated
// group judged together gets the same verdict). Self-contained: its own table, nothing else altered.
// Version 19 while this branch has no migration 019; it becomes 20 when 019 (another branch) merges.
export const migration020: Migration = {
  version: 20,
  description: "run_verdicts: a run's regression verdict against its baseline",
  up(db) {
    db.exec(`
      CREATE TABLE run_verdicts (
        run_id       INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
        rules_failed INTEGER NOT NULL,
        rules_total  INTEGER NOT NULL,
        one_run      INTEGER NOT NULL CHECK (one_run IN (0, 1)),
        verdict_json TEXT    NOT NULL
      );
    `);
  },
};
