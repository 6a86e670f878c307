import Database from 'better-sqlite3';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadscopeError } from '../contract/errors.js';
import { migrate, schemaVersion } from './migrate.js';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations/index.js';
import { openStore } from './store.js';
import { newRun } from './test-support/factories.js';
import { useTempDir } from './test-support/temp-store.js';
import { insertOldRun } from './test-support/old-database.js';

const tmp = useTempDir();

function raw(): Database.Database {
  mkdirSync(dirname(tmp.dbPath), { recursive: true });
  return new Database(tmp.dbPath);
}

function tables(db: Database.Database): string[] {
  return db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`).pluck().all().map(String);
}

function thrown(fn: () => unknown): LoadscopeError {
  try {
    fn();
  } catch (err) {
    if (err instanceof LoadscopeError) return err;
    throw err;
  }
  throw new Error('expected a LoadscopeError');
}

describe('migrations', () => {
  it('are numbered 1..n', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('build the whole schema from an empty file, with WAL, foreign keys and the version set', () => {
    const store = openStore(tmp.dbPath); // the nested parent folder is created
    store.close();
    const db = raw();
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(tables(db)).toEqual(['baselines', 'cells', 'compare_samples', 'data_blobs', 'library_scenarios', 'library_version_files', 'library_versions', 'phases', 'request_packs', 'requests', 'run_verdicts', 'runs', 'samples', 'targets', 'thresholds', 'windows']);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  // Every older version (0 = empty .. latest - 1) migrates to the latest and keeps its data usable.
  for (let from = 0; from < SCHEMA_VERSION; from++) {
    it(`bring a version ${from} database up to ${SCHEMA_VERSION}`, () => {
      const db = raw();
      migrate(db, MIGRATIONS.slice(0, from));
      expect(schemaVersion(db)).toBe(from);
      db.close();
      const store = openStore(tmp.dbPath);
      const id = store.createRun(newRun());
      store.finishRun(id, 'completed', null);
      expect(store.getRun(id).status).toBe('completed');
      store.close();
      const again = raw();
      expect(schemaVersion(again)).toBe(SCHEMA_VERSION);
      again.close();
    });
  }

  it('keep a version 1 database\'s runs and raw rows when moving to version 2', () => {
    const db = raw();
    migrate(db, MIGRATIONS.slice(0, 1));
    insertOldRun(db, 2);
    const insert = db.prepare(`INSERT INTO requests (target_id, phase_idx, client_idx, intended_us, done_us, status, bytes) VALUES (1, 0, 0, ?, ?, 200, 10)`);
    insert.run(0, 1000);
    insert.run(100, 1100);
    db.close();
    const store = openStore(tmp.dbPath);
    expect(store.getRun(1).targets[0]).toMatchObject({ rawRows: 2, rawSampled: false });
    expect([...store.iterateRequests(1)].map((r) => r.doneUs)).toEqual([1000, 1100]);
    store.close();
    const again = raw();
    expect(again.prepare('SELECT lvl FROM requests').pluck().all()).toEqual([0, 0]);
    expect(again.prepare('SELECT raw_level FROM runs').pluck().get()).toBe(0);
    again.close();
  });

  it('chain in order, each in its own transaction: a failing step leaves the previous version', () => {
    const steps: Migration[] = [
      { version: 1, description: 'a', up: (db) => db.exec('CREATE TABLE a (x)') },
      { version: 2, description: 'b', up: (db) => db.exec('ALTER TABLE a ADD COLUMN y') },
      { version: 3, description: 'broken', up: (db) => db.exec('CREATE TABLE c (x); CREATE TABLE nope (') },
    ];
    const db = raw();
    const err = thrown(() => migrate(db, steps));
    expect(err.code).toBe('LS_ERR_DB');
    expect(err.message).toMatch(/migration 3 \(broken\) failed/);
    expect(schemaVersion(db)).toBe(2);
    expect(tables(db)).toEqual(['a']);
    expect(db.prepare('SELECT y FROM a').all()).toEqual([]);
    expect(migrate(db, steps.slice(0, 2))).toBe(2); // nothing left to do
    db.close();
  });

  it('refuse a list with gaps', () => {
    const db = raw();
    expect(thrown(() => migrate(db, [{ version: 2, description: 'x', up: () => undefined }])).code).toBe('LS_ERR_INTERNAL');
    db.close();
  });

  it('refuse a database from a newer Loadscope with a clear LS_ERR_DB', () => {
    const db = raw();
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const err = thrown(() => openStore(tmp.dbPath));
    expect(err.code).toBe('LS_ERR_DB');
    expect(err.message).toContain(`schema version ${SCHEMA_VERSION + 5}, newer than this Loadscope understands (${SCHEMA_VERSION})`);
  });

  it('refuse a file that is not a database with LS_ERR_DB', () => {
    mkdirSync(dirname(tmp.dbPath), { recursive: true });
    writeFileSync(tmp.dbPath, 'this is not sqlite, just some text that is long enough to look like a header'.repeat(20));
    const err = thrown(() => openStore(tmp.dbPath));
    expect(err.code).toBe('LS_ERR_DB');
    expect(err.message).toContain(tmp.dbPath);
  });
});
