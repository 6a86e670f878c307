import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDataFiles } from './data-files.js';
import { ScenarioInvalidError } from './errors.js';
import { prepareScenario } from './prepare.js';
import { PEM_KEY_TEXT, quotedPieces, SHADOW_TEXT, writeSecretFiles } from './test-support/secret-files.js';

// A scenario naming a file that is not its data (/etc/shadow, a private key) as a data file: every
// problem is said without a byte of the file. It reached the CLI and the UI's 422 as the file's first
// line ("columns: root:*:20228:..."), as csv-parse's quoted field, and as V8's JSON message quoting
// the line. Real files in a temp folder, shaped like the secrets (the CLI and the browser host's
// answers: cli/file-inputs.test.ts).

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scenarioOf = (file: string, format: 'csv' | 'jsonl' = 'csv', path = '/u/{{data.user}}') => ({
  name: 'secrets',
  servers: [{ architecture: 'single' as const }],
  data: [{ name: 'users', file, format }],
  phases: [{ executor: 'burst' as const, count: 1, data: 'users', requests: [{ path }] }],
});

/** The one problem readDataFiles finds, as `validate` prints it. */
function problemOf(file: string, format: 'csv' | 'jsonl' = 'csv', path?: string): string {
  const p = prepareScenario(scenarioOf(file, format, path), 'test');
  try {
    readDataFiles(p.scenario, p.cells, dir, 'test');
  } catch (err) {
    if (!(err instanceof ScenarioInvalidError)) throw err;
    expect(err.issues).toHaveLength(1);
    return `${err.issues[0]!.path}: ${err.issues[0]!.message}`;
  }
  throw new Error('expected a ScenarioInvalidError');
}

describe('a secret as a data file: the error names the problem, never the text', () => {
  it('/etc/shadow as a CSV read for a column it lacks: the issue counts its columns, quotes none', () => {
    const { shadow } = writeSecretFiles(dir);
    const problem = problemOf(shadow);
    expect(quotedPieces(SHADOW_TEXT, problem)).toEqual([]);
    expect(problem).toBe("phases[0].requests[0].path: no column 'user' in data 'users' (its file has 1 column)");
  });

  it('a private key as a CSV (for a column) and as JSON lines: no piece of the key', () => {
    const { key } = writeSecretFiles(dir);
    for (const [format, expected] of [['csv', /its file has 1 column\)$/], ['jsonl', /id_key\.pem: line 1 is not JSON$/]] as const) {
      const problem = problemOf(key, format);
      expect(quotedPieces(PEM_KEY_TEXT, problem)).toEqual([]);
      expect(problem).toMatch(expected);
    }
  });

  // each shaped so csv-parse's own message quotes the field it stopped at
  const malformed: [string, string, RegExp][] = [
    ['a quote inside an unquoted field', 'user\nroot:*:20228:0:"99999":7:::\n', /not a CSV: line 2 has a quote inside a field that does not start with one$/],
    ['a quoted field never closed', 'user\n"root:*:20228:0:99999:7:::\n', /not a CSV: line 2 opens a quoted field that is never closed$/],
    ['text after a closing quote', 'user\n"root:*:20228"0:99999:7:::\n', /not a CSV: line 2 has text right after a closing quote$/],
    ['a line with more fields', 'user\nroot:*:20228,0:99999:7:::\n', /not a CSV: line 2 has a different number of fields than the first line$/],
    ['two columns of one name', 'root:*:20228,root:*:20228\n1,2\n', /columns 1 and 2 of the first line have the same name$/],
    ['a column with no name', 'root:*:20228, \n1,2\n', /column 2 of the first line has no name$/],
  ];
  for (const [what, text, expected] of malformed) {
    it(`a CSV with ${what}: one line at data[0].file saying where, quoting nothing`, () => {
      writeFileSync(join(dir, 'bad.csv'), text);
      const problem = problemOf('bad.csv');
      expect(quotedPieces(text, problem)).toEqual([]);
      expect(problem).toMatch(/^data\[0\]\.file: /);
      expect(problem).toMatch(expected);
    });
  }
});
