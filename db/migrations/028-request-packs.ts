import type { Migration } from './migration.js';

// Issue 42, CPU per request: SQLite's ~2.2 us a stored row was the whole tool's largest cost at high
// rates, so a batch of raw rows is stored as a few blobs ("packs", db/request-pack.ts) instead of one
// row each. A pack holds the rows of one batch at one sampling level (request-writer.ts), so the cap's
// purge stays a DELETE of whole packs; seq0 and batch_rows (the batch's first row number in the run
// and how many rows it had) let a reader put a batch's packs back in the order they were recorded.
// The requests table stays: runs stored before this keep their rows there, and db/request-rows.ts
// reads both shapes for every reader.
export const migration028: Migration = {
  version: 28,
  description: 'raw request rows stored as packed batches (request_packs)',
  up(db) {
    db.exec(`
      CREATE TABLE request_packs (
        id         INTEGER PRIMARY KEY,
        target_id  INTEGER NOT NULL REFERENCES targets (id) ON DELETE CASCADE,
        lvl        INTEGER NOT NULL CHECK (lvl >= 0 AND lvl <= 32),
        seq0       INTEGER NOT NULL CHECK (seq0 >= 0),
        batch_rows INTEGER NOT NULL CHECK (batch_rows > 0),
        rows       INTEGER NOT NULL CHECK (rows > 0 AND rows <= batch_rows),
        data       BLOB NOT NULL
      );
      CREATE INDEX request_packs_target ON request_packs (target_id);
    `);
  },
};
