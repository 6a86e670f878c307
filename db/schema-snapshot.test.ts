import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from './store.js';
import { useTempDir } from './test-support/temp-store.js';

// The schema the shipped migrations build, kept as it was (issue 37): a migration already shipped is
// never edited in effect, even when its text is generated (the histogram columns come from one table
// now). test-support/schema-v28.sql is sqlite_master of a fresh database (version 20 as main built it
// before that change, then migration 21's two columns, 22's index, 23's trace columns, 24's kept data
// files, 25's requests table rebuilt for 'check' errors, 26's k6 instances column and 27's requests
// table rebuilt for stream errors with the phases' and windows' stream columns, 28's request packs); SQLite keeps each CREATE TABLE's text as
// written, ALTER TABLE appending to it, so a
// column renamed, retyped, reordered or re-spaced shows here.

const tmp = useTempDir();
const snapshot = join(dirname(fileURLToPath(import.meta.url)), 'test-support', 'schema-v28.sql');

/** sqlite_master as text: one block per table, index and trigger, in name order. */
function schemaText(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    const found = db.prepare('SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name').all() as { type: string; name: string; sql: string }[];
    return `${found.map((r) => `-- ${r.type} ${r.name}\n${r.sql};\n`).join('\n')}\n`;
  } finally {
    db.close();
  }
}

describe('the schema of a fresh database', () => {
  it('every migration applied to a new file: sqlite_master is the snapshot taken before the histogram columns were generated, plus the CPU columns, the index on first requests, the trace ids, the kept data files, check errors, k6 instances, streams and request packs', () => {
    openStore(tmp.dbPath).close();
    expect(schemaText(tmp.dbPath)).toBe(readFileSync(snapshot, 'utf8'));
  });
});
