import type { Migration } from './migration.js';

// Raw rows above a run's cap are sampled by level instead of by replacing random rows in place:
// every row gets a random level (P(level >= L) = 2^-L); the run keeps the rows with level >= its
// current raw_level, and raising the level by one drops about half of the stored rows in one bulk
// DELETE. The write path stays append-only, which is what keeps it faster than the driver.
export const migration002: Migration = {
  version: 2,
  description: 'sampling levels for raw requests',
  up(db) {
    db.exec(`
      ALTER TABLE requests ADD COLUMN lvl INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN raw_level INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
