import type { Migration } from './migration.js';

// Named requests (issue 26): a stored request says which template (endpoint) of its phase it came
// from, a phase keeps its per-endpoint figures, and a threshold may be checked on one endpoint.
// Requests stored before this were all counted under the phase: template 0.
export const migration010: Migration = {
  version: 10,
  description: 'request template per request row, per-endpoint phase figures, per-endpoint thresholds',
  up(db) {
    db.exec(`
      ALTER TABLE requests ADD COLUMN template_idx INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE phases ADD COLUMN endpoints_json TEXT;
      ALTER TABLE thresholds ADD COLUMN request TEXT;
    `);
  },
};
