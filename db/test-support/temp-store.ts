import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openStore, type Store } from '../store.js';
import { tempDir } from './factories.js';

// A real SQLite store (or just its folder) fresh for each test of the file that calls it, closed
// and removed after the test: the set-up every store-backed test shares.

export interface TempStore {
  /** this test's store */
  readonly store: Store;
  readonly dbPath: string;
  /** the temporary folder the database is in (for other files beside it) */
  readonly dir: string;
  /** closes the store, runs `meanwhile` on the closed file (a raw edit, say), opens the file again: what the next process would read */
  reopen(meanwhile?: (dbPath: string) => void): Store;
}

/** One SQL statement on the database file through a connection of its own: damage, or what an older build wrote. */
export function rawSql(dbPath: string, sql: string, ...params: unknown[]): void {
  const db = new Database(dbPath);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

const current = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error('a temporary store or folder exists only inside a test');
  return value;
};

/** 'test': fresh for each test (the default); 'file': one for all the tests of the file. */
export type TempScope = 'test' | 'file';
const hooks = (per: TempScope) => (per === 'test' ? { before: beforeEach, after: afterEach } : { before: beforeAll, after: afterAll });

/** A temporary folder (`dbPath` a not yet created database in a nested folder), removed after the test or file. */
export function useTempDir(per: TempScope = 'test'): { readonly dir: string; readonly dbPath: string } {
  let tmp: ReturnType<typeof tempDir> | undefined;
  hooks(per).before(() => {
    tmp = tempDir();
  });
  hooks(per).after(() => {
    tmp?.remove();
    tmp = undefined;
  });
  return {
    get dir() {
      return current(tmp).dir;
    },
    get dbPath() {
      return current(tmp).dbPath;
    },
  };
}

export function useTempStore(per: TempScope = 'test'): TempStore {
  const tmp = useTempDir(per);
  let store: Store | undefined;
  hooks(per).before(() => {
    store = openStore(tmp.dbPath);
  });
  hooks(per).after(() => {
    store?.close();
    store = undefined;
  });
  return {
    get store() {
      return current(store);
    },
    get dbPath() {
      return tmp.dbPath;
    },
    get dir() {
      return tmp.dir;
    },
    reopen(meanwhile) {
      current(store).close();
      meanwhile?.(tmp.dbPath);
      store = openStore(tmp.dbPath);
      return store;
    },
  };
}
