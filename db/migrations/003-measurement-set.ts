import { addHistogramColumns } from '../histogram-columns.js';
import type { Migration } from './migration.js';

// The full histogram set of contract/measurement.ts: the driver always encoded server-wait and
// schedule-lag histograms, and the store kept only their summaries; and the per-window count of
// open-loop arrivals waiting for a client (`queued`) was measured and dropped.
export const migration003: Migration = {
  version: 3,
  description: 'server-wait and lag histograms, queued arrivals per window',
  up(db) {
    db.exec(`
      ${addHistogramColumns(3)}
      ALTER TABLE windows ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
