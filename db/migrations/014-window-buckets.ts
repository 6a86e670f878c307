import type { Migration } from './migration.js';

// The latency heatmap (issue 27): each window keeps its requests' total times per heatmap bucket
// (contract/latency-buckets.ts) as JSON [bucket, count, ...], a few dozen numbers, so a heatmap of a
// run of millions of requests reads its windows only. Windows stored before this have none (NULL).
export const migration014: Migration = {
  version: 14,
  description: 'per-window latency buckets for the heatmap',
  up(db) {
    db.exec(`ALTER TABLE windows ADD COLUMN total_buckets TEXT;`);
  },
};
