import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HISTOGRAMS } from '../contract/measurement.js';
import { HISTOGRAM_COLUMNS } from './histogram-columns.js';

// The histogram columns have one owner (issue 37): db/histogram-columns.ts lists them and the run
// writer, the reader and the migrations that made them are generated from it, so a histogram added to
// the contract lands in one table. A source scan of db/ and engine/ fails on the next file that spells
// a column's name (tests left out: they write old databases' rows as those builds did).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OWNER = 'db/histogram-columns.ts';
const COLUMN_NAME = new RegExp(`\\b(?:hist_\\w+|${HISTOGRAM_COLUMNS.map((c) => c.column).join('|')})\\b`);

/** Shipped TypeScript under `dir` (tests and test support left out). */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Lines of `text` that spell a histogram column, as "line: text". */
function columnNames(text: string): string[] {
  return text.split('\n').flatMap((line, i) => (COLUMN_NAME.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

describe('the histogram columns, one table', () => {
  it("the contract's histograms: one column each, in the contract's order", () => {
    expect(HISTOGRAM_COLUMNS.map((c) => c.key)).toEqual(HISTOGRAMS.map((h) => h.key));
    expect(new Set(HISTOGRAM_COLUMNS.map((c) => c.column)).size).toBe(HISTOGRAM_COLUMNS.length);
  });

  it('db/ and engine/ sources: a histogram column is spelled only in its table file', () => {
    const found = ['db', 'engine']
      .flatMap((dir) => sources(join(root, dir)))
      .map((f) => relative(root, f).split('\\').join('/'))
      .filter((f) => f !== OWNER)
      .flatMap((f) => columnNames(readFileSync(join(root, f), 'utf8')).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });

  it('the scan sees a column spelled in SQL, a comment and a new hist_ column (planted lines)', () => {
    expect(columnNames("db.prepare('SELECT p.hist_lag FROM phases p');\nconst x = 1;\n// an empty hist_wait reads as null\nALTER TABLE phases ADD COLUMN hist_queue TEXT;")).toEqual([
      "1: db.prepare('SELECT p.hist_lag FROM phases p');",
      '3: // an empty hist_wait reads as null',
      '4: ALTER TABLE phases ADD COLUMN hist_queue TEXT;',
    ]);
    expect(columnNames('const histogram = h.total; // the history of it')).toEqual([]);
  });
});
