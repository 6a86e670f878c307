import type { Migration } from './migration.js';

// The user's scenario library: every saved version is kept (a version is never changed), and a run
// records the text it was started from, its --set overrides and, for a library scenario, the exact
// version. Deleting a scenario deletes its versions; its runs keep their own copy (source_text).
export const migration006: Migration = {
  version: 6,
  description: 'scenario library with versions; runs keep the text they started from',
  up(db) {
    db.exec(`
      CREATE TABLE library_scenarios (
        id         INTEGER PRIMARY KEY,
        name       TEXT    NOT NULL UNIQUE,
        created_at TEXT    NOT NULL,
        updated_at TEXT    NOT NULL
      );

      CREATE TABLE library_versions (
        id          INTEGER PRIMARY KEY,
        scenario_id INTEGER NOT NULL REFERENCES library_scenarios (id) ON DELETE CASCADE,
        version     INTEGER NOT NULL,
        text        TEXT    NOT NULL,
        saved_at    TEXT    NOT NULL,
        UNIQUE (scenario_id, version)
      );

      ALTER TABLE runs ADD COLUMN source_text TEXT;
      ALTER TABLE runs ADD COLUMN source_set_json TEXT;
      ALTER TABLE runs ADD COLUMN library_version_id INTEGER REFERENCES library_versions (id) ON DELETE SET NULL;
      CREATE INDEX runs_library_version ON runs (library_version_id);
    `);
  },
};
