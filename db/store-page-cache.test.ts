import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The store's page cache stays small while a run writes (issue 42, peak memory): a run appends raw
// rows as packs and reads none back, so each page it writes stays in SQLite's page cache until the
// cache is full, and better-sqlite3's compiled-in 16 MiB cache made 16 MiB of a 50-user run's peak.
// Measured in a child process of its own (db/test-support/page-cache-writer.ts), whose resident set
// is the store's and a small young generation's.

// the compiled child, as every process a test starts (tests run against dist/)
const writer = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'db', 'test-support', 'page-cache-writer.js');

describe("the store's page cache", () => {
  it('storing 400,000 raw rows (about 40 MB of packs): the process grows by less than 8 MiB, not by a 16 MiB cache', () => {
    const out = execFileSync(process.execPath, ['--max-semi-space-size=1', writer], { encoding: 'utf8', timeout: 120_000 });
    const { grewMiB } = JSON.parse(out) as { grewMiB: number };
    expect(grewMiB).toBeLessThan(8);
  });
});
