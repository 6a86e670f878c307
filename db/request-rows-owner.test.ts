import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Raw request rows have one reader (db/request-rows.ts) and one writer (db/request-writer.ts): no
// other shipped file or bench reads the requests table or the packs, so no reader knows how rows are
// stored (issue 42 changed it to packs, and every reader that had its own SELECT had to be found).
// Tests, their support and the migrations see the tables themselves; bench/store-insert.ts measures
// the store against plain better-sqlite3 code into the same table.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OWNERS = new Set(['db/request-rows.ts', 'db/request-writer.ts', 'db/delete-damaged.ts', 'bench/store-insert.ts']);
// SQL is written in capitals here, so "data from requests" in prose is not a statement
const READS = /\b(?:FROM|JOIN|INTO|UPDATE)\s+"?(?:requests|request_packs)\b/;

function shippedFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.js'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !f.includes('test-support/') && !/\.test\.tsx?$/.test(f) && !f.startsWith('db/migrations/') && !OWNERS.has(f));
}

describe('the raw rows have one reader', () => {
  it('every shipped file and bench but the owners: no statement on the requests table or its packs', () => {
    const offenders = shippedFiles().filter((f) => READS.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
