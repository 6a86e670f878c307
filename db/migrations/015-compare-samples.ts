import type { Migration } from './migration.js';

// Verbs over big runs (issue 29): Compare's intervals bootstrap a fixed-size, evenly spaced sample of
// a server run's request rows. It is drawn once, when the run ends (db/compare-sample.ts), and kept
// here as one packed blob per server run (the request row layout of contract/measurement.ts), so
// compare and a regression verdict read a few hundred kB per server run, never its millions of raw
// rows. Runs stored before this have none: their sample is drawn from the raw rows when asked.
export const migration015: Migration = {
  version: 15,
  description: "each server run's compare sample of its request rows",
  up(db) {
    db.exec(`
      CREATE TABLE compare_samples (
        target_id INTEGER PRIMARY KEY REFERENCES targets (id) ON DELETE CASCADE,
        -- Float64 little-endian, REQUEST_STRIDE numbers a row (contract/measurement.ts)
        rows      BLOB    NOT NULL
      );
    `);
  },
};
