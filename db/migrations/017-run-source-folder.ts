import type { Migration } from './migration.js';

// The folder a scenario opened from a file was in: its relative data and TLS files start there, so a
// run of it can be run again from the UI or `run --again` (before this, run again of such a scenario
// failed: "relative, and this scenario has no folder"). Null for built-ins, the library and pasted text.
export const migration017: Migration = {
  version: 17,
  description: "runs.source_folder: where a file scenario's relative paths start",
  up(db) {
    db.exec('ALTER TABLE runs ADD COLUMN source_folder TEXT;');
  },
};
