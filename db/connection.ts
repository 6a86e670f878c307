import type Database from 'better-sqlite3';

// How the store's connection is set up (db/store.ts opens it): waits for another writer, WAL,
// foreign keys, its page cache, and a page limit when one is given (StoreOptions.maxPageCount).
// The cache is SQLite's own default (2 MiB), not the 16 MiB better-sqlite3 compiles in: a run
// appends its raw rows as packs (request-writer.ts) and reads nothing back, so every page it wrote
// stayed cached till the cache was full, 16 MiB of a 50-user run's peak (issue 42: 146 MiB against
// 120; docs/performance.md). Readers scan packs once in order, which a larger cache does not speed up.
const PAGE_CACHE_KIB = 2000;

export function setUpConnection(db: Database.Database, maxPageCount?: number): void {
  // cache_size: negative is KiB
  for (const pragma of ['busy_timeout = 5000', 'journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', `cache_size = -${PAGE_CACHE_KIB}`]) db.pragma(pragma);
  if (maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPageCount)}`);
}
