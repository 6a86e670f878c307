import type { Migration } from './migration.js';

// Issue 40: a server run whose load several k6 processes sent keeps one line of facts per instance
// (contract/instances.ts: requests, errors, dropped, first and last request, CPU, per endpoint) as
// JSON beside its merged phases, parsed with the contract's schema when read (as phases keep their
// endpoints). Null: one generator, no instance dimension (every run before this, native runs).
export const migration026: Migration = {
  version: 26,
  description: 'targets.instances_json: the k6 instances that sent a server run\'s load',
  up(db) {
    db.exec('ALTER TABLE targets ADD COLUMN instances_json TEXT;');
  },
};
