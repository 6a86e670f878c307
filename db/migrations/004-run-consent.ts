import type { Migration } from './migration.js';

// What a run needed beyond this machine's bundled servers (hosts outside it, commands it ran) and
// what the person agreed to (--allow-remote / --allow-commands or the UI's confirmation), as JSON.
// NULL for runs stored before consent existed (they could not leave the machine).
export const migration004: Migration = {
  version: 4,
  description: 'consent stored with each run',
  up(db) {
    db.exec('ALTER TABLE runs ADD COLUMN consent_json TEXT');
  },
};
