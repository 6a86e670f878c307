import type { Migration } from './migration.js';

// Threshold results: one row per threshold per phase of a server run, with the value measured, so
// `show`, History and CI read the verdict back exactly as it was given when the phase ended.
export const migration005: Migration = {
  version: 5,
  description: 'threshold results per server run and phase',
  up(db) {
    db.exec(`
      CREATE TABLE thresholds (
        target_id   INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        idx         INTEGER NOT NULL,
        phase_idx   INTEGER NOT NULL,
        phase       TEXT    NOT NULL,
        check_text  TEXT    NOT NULL,
        metric      TEXT    NOT NULL,
        op          TEXT    NOT NULL,
        limit_value REAL    NOT NULL,
        measured    REAL,
        passed      INTEGER NOT NULL CHECK (passed IN (0, 1)),
        PRIMARY KEY (target_id, idx)
      ) WITHOUT ROWID;
    `);
  },
};
