import type { Migration } from './migration.js';

// A run can be given a name (shown instead of its scenario title) and a free-text note; both are
// the user's own strings, null until set.
export const migration009: Migration = {
  version: 9,
  description: 'run notes: a user-given name and note per run',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN name TEXT;
      ALTER TABLE runs ADD COLUMN note TEXT;
    `);
  },
};
