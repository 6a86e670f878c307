import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_INCLUDES_BYTES, MAX_REQUEST_BYTES } from '../../contract/request-limits.js';
import type { ScenarioIssue } from '../../contract/scenario.js';
import { rootPath } from '../paths.js';
import { readDataFiles } from './data-files.js';
import { ScenarioInvalidError } from './errors.js';
import { prepareScenario } from './prepare.js';
import { createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

// What a scenario's requests may build and keep is refused before anything runs, one line at the
// template's JSON path naming the bound (engine/scenario/request-bounds.ts, contract/request-limits.ts):
// a request its data values would make over MAX_REQUEST_BYTES (issue 35's expansion bomb: 300 uses of
// a 1 MB value in a 4 KB scenario took 7.1 GB), values counted as escaped where they land; an
// expect.bodyIncludes over MAX_BODY_INCLUDES_BYTES; an extract pattern that could backtrack.

const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args], { cwd: tmpdir(), encoding: 'utf8', timeout: 30_000 });

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-request-bounds-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A scenario whose one phase reads `values.jsonl` (column v) into `template`. */
const withData = (template: Record<string, unknown>) => ({
  name: 'bounds',
  servers: [{ architecture: 'single' }],
  data: [{ name: 'values', file: 'values.jsonl', format: 'jsonl' }],
  phases: [{ executor: 'burst', count: 1, data: 'values', requests: [{ method: 'POST', path: '/upload', ...template }] }],
});

/** Each issue as `path: message` when the scenario's data files are read (as run and validate read them). */
function dataIssues(input: unknown, values: string[]): string[] {
  writeFileSync(join(dir, 'values.jsonl'), values.map((v) => JSON.stringify({ v })).join('\n'));
  const p = prepareScenario(input, 'test');
  try {
    readDataFiles(p.scenario, p.cells, dir, 'test');
    return [];
  } catch (err) {
    if (err instanceof ScenarioInvalidError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
}

function issuesOf(input: unknown): string[] {
  const result = validateScenario(input);
  return result.ok ? [] : result.issues.map((i: ScenarioIssue) => `${i.path}: ${i.message}`);
}

const text = { 'content-type': 'text/plain' };
/** path '/upload' and the content-type header: the bytes besides the values */
const FIXED = '/upload'.length + 'content-type'.length + 'text/plain'.length;

describe('a request its data values make too big', () => {
  it('the expansion bomb, 300 uses of a 1 MB value in a 4 KB scenario: `loadscope validate` refuses it in one line naming the template and the bound', () => {
    const scenario = JSON.stringify(withData({ headers: text, body: '{{data.v}}'.repeat(300) }));
    expect(scenario.length).toBeLessThan(4096);
    writeFileSync(join(dir, 'bomb.json'), scenario);
    writeFileSync(join(dir, 'values.jsonl'), `${JSON.stringify({ v: 'x'.repeat(1_000_000) })}\n`);
    const r = cli('validate', join(dir, 'bomb.json'));
    expect(r.status).toBe(2);
    const line = "phases[0].requests[0]: 'POST /upload' can build a request of 286.1 MiB (300 uses of {{data.v}} make 286.1 MiB); a request may have at most 4 MiB of path, headers and body";
    expect(r.stderr.split('\n').filter((l) => l.includes('phases[0]'))).toEqual([line]);
  });

  it('a value that makes the request exactly the bound: passes; one byte more: refused', () => {
    const once = withData({ headers: text, body: '{{data.v}}' });
    expect(dataIssues(once, ['a', 'x'.repeat(MAX_REQUEST_BYTES - FIXED)])).toEqual([]);
    expect(dataIssues(once, ['a', 'x'.repeat(MAX_REQUEST_BYTES - FIXED + 1)])).toEqual([
      "phases[0].requests[0]: 'POST /upload' can build a request of 4194305 bytes (1 use of {{data.v}} makes 4 MiB); a request may have at most 4 MiB of path, headers and body",
    ]);
  });

  it('a value is counted as escaped where it lands: percent-encoded in the path, \\u-escaped in a JSON string', () => {
    // 1.5 MiB of '/' is 4.5 MiB as %2F; 700 KiB of U+0001 is 4.1 MiB as \u0001
    const inPath = withData({ path: '/u/{{data.v}}' });
    expect(dataIssues(inPath, ['/'.repeat(1.5 * 1024 * 1024)])[0]).toMatch(/^phases\[0\]\.requests\[0\]: 'POST \/u\/\{\{data\.v\}\}' can build a request of 4\.5 MiB/);
    const inJson = withData({ headers: { 'content-type': 'application/json' }, body: '{"a":"{{data.v}}"}' });
    expect(dataIssues(inJson, ['\u0001'.repeat(700 * 1024)])[0]).toMatch(/can build a request of 4\.1 MiB \(1 use of \{\{data\.v\}\} makes 4\.1 MiB\)/);
    // the same bytes as plain text in a body fit
    expect(dataIssues(withData({ headers: text, body: '{{data.v}}' }), ['\u0001'.repeat(700 * 1024)])).toEqual([]);
  });

  it('100 uses of built-ins and {{vars.x}} without data: passes, vars are bounded at run time', () => {
    const vars = { executor: 'closed', users: 1, count: 1, flow: true, requests: [{ path: '/a', extract: { var: 't', from: 'json', path: 't' } }, { path: '/b', body: '{{vars.t}}{{uuid}}{{isoTime}}'.repeat(100) }] };
    expect(issuesOf(createScenario({ phases: [vars] } as never))).toEqual([]);
  });
});

describe('what a request keeps of its response', () => {
  const check = (bodyIncludes: string) => createScenario({ phases: [{ executor: 'burst', count: 1, requests: [{ path: '/', expect: { bodyIncludes } }] }] });

  it('expect.bodyIncludes of the bound: passes; a byte more: refused at its path', () => {
    expect(issuesOf(check('n'.repeat(MAX_BODY_INCLUDES_BYTES)))).toEqual([]);
    expect(issuesOf(check('n'.repeat(MAX_BODY_INCLUDES_BYTES + 1)))).toEqual([
      'phases[0].requests[0].expect.bodyIncludes: 4097 bytes; at most 4 KiB (each request in flight keeps this much of its response to search it)',
    ]);
  });

  it('an extract pattern with nested quantifiers, ^((a+)+)$: refused at its JSON path', () => {
    const steps = [{ path: '/', extract: { var: 't', from: 'regex', pattern: '^((a+)+)$' } }];
    expect(issuesOf(createScenario({ phases: [{ executor: 'closed', users: 1, count: 1, flow: true, requests: steps }] } as never))).toEqual([
      "phases[0].requests[0].extract.pattern: '+' repeats a group holding a quantifier (as in (a+)+ or (a|b)+), which can backtrack for a very long time; repeat a character class instead (e.g. [ab]+), got \"^((a+)+)$\"",
    ]);
  });
});
