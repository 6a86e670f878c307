import { afterEach, beforeEach } from 'vitest';
import { openStore, type Store } from '../store.js';
import { tempDir } from './factories.js';

// A real SQLite store (or just its folder) fresh for each test of the file that calls it, closed
// and removed after the test: the set-up every store-backed test shares.

export interface TempStore {
  /** this test's store */
  readonly store: Store;
  readonly dbPath: string;
  /** closes the store, runs `meanwhile` on the closed file (a raw edit, say), opens the file again: what the next process would read */
  reopen(meanwhile?: (dbPath: string) => void): Store;
}

const current = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error('a temporary store or folder exists only inside a test');
  return value;
};

/** A fresh temporary folder for each test (`dbPath` a not yet created database in a nested folder), removed after it. */
export function useTempDir(): { readonly dir: string; readonly dbPath: string } {
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => {
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

export function useTempStore(): TempStore {
  const tmp = useTempDir();
  let store: Store | undefined;
  beforeEach(() => {
    store = openStore(tmp.dbPath);
  });
  afterEach(() => {
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
    reopen(meanwhile) {
      current(store).close();
      meanwhile?.(tmp.dbPath);
      store = openStore(tmp.dbPath);
      return store;
    },
  };
}
