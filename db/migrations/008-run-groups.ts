import type { Migration } from './migration.js';

// Repeated runs (`loadscope run --repeat N`): the N runs of one scenario form a group, named by its
// first run's id, so their figures can be shown as a mean with an interval across the runs.
export const migration008: Migration = {
  version: 8,
  description: 'run groups: repeated runs of one scenario',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN group_id INTEGER;
      ALTER TABLE runs ADD COLUMN group_index INTEGER;
      CREATE INDEX runs_group ON runs (group_id);
    `);
  },
};
