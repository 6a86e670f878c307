import type { Migration } from './migration.js';

// Runs made by another load generator: k6, run locally (`loadscope run --engine k6`) or imported from
// its result files (`loadscope import-k6`, e.g. from k6-operator pods). engine_note says what that
// engine does not measure (k6 has no intended send time) and what it dropped.
export const migration007: Migration = {
  version: 7,
  description: 'the load generator of a run (native or k6) and a note on what it measured',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN engine TEXT NOT NULL DEFAULT 'native' CHECK (engine IN ('native', 'k6'));
      ALTER TABLE runs ADD COLUMN engine_note TEXT;
    `);
  },
};
