import { addHistogramColumns } from '../histogram-columns.js';
import type { Migration } from './migration.js';

// Honest timing without Server-Timing (issue 26): what the client measures on its own beside total,
// time to first byte (first byte - sent) and transfer (done - first byte), per phase (figures and
// histograms) and per window. Phases and windows stored before this have none (read as absent).
// wait_json and the wait histogram stay NOT NULL as migration 1 made them: a phase without
// Server-Timing stores the JSON null and an empty histogram (db/histogram-columns.ts, read back as
// null), not a rebuilt table.
export const migration012: Migration = {
  version: 12,
  description: 'time to first byte and transfer per phase and window',
  up(db) {
    db.exec(`
      ALTER TABLE phases ADD COLUMN ttfb_json TEXT;
      ALTER TABLE phases ADD COLUMN transfer_json TEXT;
      ${addHistogramColumns(12)}
      ALTER TABLE windows ADD COLUMN ttfb_json TEXT;
      ALTER TABLE windows ADD COLUMN transfer_json TEXT;
    `);
  },
};
