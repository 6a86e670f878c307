import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_LIMITS, readDataFiles } from './data-files.js';
import { ScenarioInvalidError } from './errors.js';
import { prepareScenario } from './prepare.js';

// Data files as a run reads them: real files in a temp folder, relative to the scenario's folder,
// every problem one line at the entry's or the field's JSON path.

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-data-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scenarioWith = (data: unknown[], path = '/u/{{data.id}}') =>
  prepareScenario(
    { name: 'd', servers: [{ architecture: 'single' }], data, phases: [{ executor: 'burst', count: 1, data: 'users', requests: [{ path }] }] },
    'test',
  );

function issues(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ScenarioInvalidError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  throw new Error('expected a ScenarioInvalidError');
}

const read = (data: unknown[], path?: string, base: string | null = dir) => {
  const p = scenarioWith(data, path);
  return readDataFiles(p.scenario, p.cells, base, 'test');
};

describe('reading data files', () => {
  it('CSV through csv-parse: the header names columns, quoted fields keep commas, quotes and newlines', () => {
    writeFileSync(join(dir, 'users.csv'), '\ufeffid,name\r\n1,"Ada, Countess"\r\n2,"say ""hi"""\n3,"two\nlines"\n\n');
    expect(read([{ name: 'users', file: 'users.csv' }])).toEqual([
      { name: 'users', order: 'sequential', columns: ['id', 'name'], rows: [['1', 'Ada, Countess'], ['2', 'say "hi"'], ['3', 'two\nlines']] },
    ]);
  });

  it('JSON lines: one object a line, columns in order of first appearance, values as text', () => {
    writeFileSync(join(dir, 'users.jsonl'), '{"id":1,"name":"a"}\n\n{"name":"b","id":2,"tags":["x"],"n":null}\n');
    expect(read([{ name: 'users', file: 'users.jsonl', format: 'jsonl', order: 'unique' }])).toEqual([
      { name: 'users', order: 'unique', columns: ['id', 'name', 'tags', 'n'], rows: [['1', 'a', '', ''], ['2', 'b', '["x"]', '']] },
    ]);
  });

  it('a column no file has is an issue at the field that reads it', () => {
    writeFileSync(join(dir, 'users.csv'), 'id,name\n1,a\n');
    expect(issues(() => read([{ name: 'users', file: 'users.csv' }], '/u/{{data.email}}'))).toEqual(["phases[0].requests[0].path: no column 'email' in data 'users' (its file has 2 columns)"]);
  });

  it('missing file, relative path without a folder, malformed CSV, a line that is not an object: one line at data[i].file', () => {
    expect(issues(() => read([{ name: 'users', file: 'none.csv' }]))).toEqual([`data[0].file: ${join(dir, 'none.csv')} does not exist`]);
    expect(issues(() => read([{ name: 'users', file: 'none.csv' }], undefined, null))).toEqual([
      "data[0].file: 'none.csv' is relative, and this scenario has no folder to start from (run it from its file, or give an absolute path)",
    ]);
    writeFileSync(join(dir, 'bad.csv'), 'id,name\n1,a,extra\n');
    const [bad] = issues(() => read([{ name: 'users', file: 'bad.csv' }]));
    expect(bad).toMatch(/^data\[0\]\.file: .*bad\.csv: not a CSV: line 2 has a different number of fields than the first line$/);
    expect(bad).not.toContain('\n');
    writeFileSync(join(dir, 'bad.jsonl'), '{"id":1}\n[1]\n');
    expect(issues(() => read([{ name: 'users', file: 'bad.jsonl', format: 'jsonl' }]))).toEqual([`data[0].file: ${join(dir, 'bad.jsonl')}: line 2 is not a JSON object`]);
    writeFileSync(join(dir, 'header.csv'), 'id,name\n');
    expect(issues(() => read([{ name: 'users', file: 'header.csv' }]))).toEqual([`data[0].file: ${join(dir, 'header.csv')} has no rows below its header`]);
    writeFileSync(join(dir, 'empty.jsonl'), '\n\n');
    expect(issues(() => read([{ name: 'users', file: 'empty.jsonl', format: 'jsonl' }]))).toEqual([`data[0].file: ${join(dir, 'empty.jsonl')} has no rows`]);
    writeFileSync(join(dir, 'dup.csv'), 'id,id\n1,2\n');
    expect(issues(() => read([{ name: 'users', file: 'dup.csv' }]))).toEqual([`data[0].file: ${join(dir, 'dup.csv')}: columns 1 and 2 of the first line have the same name`]);
  });

  it('limits: a file over the byte limit is refused unread; too many rows is one line', () => {
    const big = join(dir, 'big.csv');
    writeFileSync(big, 'id\n');
    truncateSync(big, DATA_LIMITS.bytes + 1);
    expect(issues(() => read([{ name: 'users', file: 'big.csv' }]))).toEqual([`data[0].file: ${big} is ${DATA_LIMITS.bytes + 1} bytes; a data file may have at most 32 MiB`]);
    writeFileSync(join(dir, 'rows.csv'), `id\n${'1\n'.repeat(DATA_LIMITS.rows + 1)}`);
    expect(issues(() => read([{ name: 'users', file: 'rows.csv' }]))).toEqual([`data[0].file: ${join(dir, 'rows.csv')}: more than ${DATA_LIMITS.rows} rows`]);
    writeFileSync(join(dir, 'rows.jsonl'), '{"id":1}\n'.repeat(DATA_LIMITS.rows + 1));
    expect(issues(() => read([{ name: 'users', file: 'rows.jsonl', format: 'jsonl' }]))).toEqual([`data[0].file: ${join(dir, 'rows.jsonl')}: more than ${DATA_LIMITS.rows} rows`]);
  });
});
