import type { Migration } from './migration.js';

// What the load generator and a server run's target actually spoke ('http/1.1', 'h2', 'h2c'), learnt
// when the load started (ALPN over TLS; h2c by prior knowledge); null where unknown (runs before
// this, k6 runs, a target that did not answer).
export const migration016: Migration = {
  version: 16,
  description: "targets.protocol: the protocol a server run's load spoke",
  up(db) {
    db.exec('ALTER TABLE targets ADD COLUMN protocol TEXT;');
  },
};
