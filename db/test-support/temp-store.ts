import { afterEach, beforeEach } from 'vitest';
import { openStore, type Store } from '../store.js';
import { tempDir } from './factories.js';

// A real SQLite store in a fresh temporary folder for each test of the file that calls it, closed
// and removed after the test: the set-up every store-backed test shares.

export interface TempStore {
  /** this test's store */
  readonly store: Store;
  readonly dbPath: string;
  /** closes the store, runs `meanwhile` on the closed file (a raw edit, say), opens the file again: what the next process would read */
  reopen(meanwhile?: (dbPath: string) => void): Store;
}

export function useTempStore(): TempStore {
  let tmp: ReturnType<typeof tempDir> | undefined;
  let store: Store | undefined;
  beforeEach(() => {
    tmp = tempDir();
    store = openStore(tmp.dbPath);
  });
  afterEach(() => {
    store?.close();
    tmp?.remove();
    store = undefined;
    tmp = undefined;
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTempStore: the store exists only inside a test');
    return value;
  };
  return {
    get store() {
      return current(store);
    },
    get dbPath() {
      return current(tmp).dbPath;
    },
    reopen(meanwhile) {
      current(store).close();
      meanwhile?.(current(tmp).dbPath);
      store = openStore(current(tmp).dbPath);
      return store;
    },
  };
}
