import type { Migration } from './migration.js';

// Data files kept with a library scenario (issue 39): a library scenario has no folder, so the CSV or
// JSON lines its `data` entries name are stored here, each content once (data_blobs, by its SHA-256),
// and each saved version names the files it holds (library_version_files: a version's files never
// change, like its text). An upload not yet saved is a blob no version names (the engine drops those
// after a day). A run started with kept files remembers which (runs.source_files_json: [{name, hash}]),
// so "run again" reads the same rows after the scenario changed or was deleted.
export const migration024: Migration = {
  version: 24,
  description: "data files kept with library scenarios: data_blobs, library_version_files, runs.source_files_json",
  up(db) {
    db.exec(`
      CREATE TABLE data_blobs (
        hash       TEXT    PRIMARY KEY,
        content    BLOB    NOT NULL,
        bytes      INTEGER NOT NULL,
        created_at TEXT    NOT NULL
      );

      CREATE TABLE library_version_files (
        version_id INTEGER NOT NULL REFERENCES library_versions (id) ON DELETE CASCADE,
        name       TEXT    NOT NULL,
        hash       TEXT    NOT NULL REFERENCES data_blobs (hash),
        PRIMARY KEY (version_id, name)
      );
      CREATE INDEX library_version_files_hash ON library_version_files (hash);

      ALTER TABLE runs ADD COLUMN source_files_json TEXT;
    `);
  },
};
