// The store's one write guard (SqliteStore.writing in store.ts), as the parts of the store that write
// for it (the library, baselines) receive it: they cannot import store.ts, which builds them.

/** Runs a write; a failure for want of space gives up the disk reserve first (see disk-reserve.ts). */
export type StoreWrite = <T>(action: () => T) => T;
