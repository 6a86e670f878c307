import type { Migration } from './migration.js';

// A phase's new connections to an https target with their connect and TLS handshake times (issue 28:
// the handshake as its own figure), as contract/results.ts ConnectionFigures JSON. NULL where a phase
// opened none over TLS (plain http, k6) and in phases stored before this (read back as absent).
export const migration018: Migration = {
  version: 18,
  description: "phases.connections_json: a phase's new TLS connections and their handshake times",
  up(db) {
    db.exec('ALTER TABLE phases ADD COLUMN connections_json TEXT;');
  },
};
