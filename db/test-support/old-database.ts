import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from '../migrate.js';
import { MIGRATIONS } from '../migrations/index.js';

// A database as an older Loadscope left it, for the tests that a migration keeps what was stored.

/** A database at `dbPath` (its folder made) at schema `version`: migrations 1..version only. The caller closes it. */
export function databaseAt(dbPath: string, version: number): Database.Database {
  mkdirSync(dirname(dbPath), { recursive: true });
  const db = new Database(dbPath);
  migrate(db, MIGRATIONS.slice(0, version));
  return db;
}

/**
 * Run 1, completed, in the columns every version since 1 has; with `rawRows`, also its one server
 * run, target 1 ('single'), holding that many raw rows.
 */
export function insertOldRun(db: Database.Database, rawRows?: number): void {
  db.prepare(`INSERT INTO runs (id, scenario_name, title, status, quick, created_at, scenario_json, raw_cap) VALUES (1, 's', 't', 'completed', 0, '2025-01-01T00:00:00.000Z', '{}', 10)`).run();
  if (rawRows === undefined) return;
  db.prepare(`INSERT INTO targets (id, run_id, cell_idx, server_idx, label, architecture, status, raw_rows) VALUES (1, 1, 0, 0, 'single', 'single', 'completed', ?)`).run(rawRows);
}
