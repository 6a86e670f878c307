import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot, rootPath } from '../paths.js';
import { validateScenarioText } from './index.js';
import { createBurstPhase, createScenario } from './test-support/factories.js';

// Every input limit answers with a one-line error naming a path, in memory and stack bounded by
// the limit rather than by the input (before these, a few MB of scenario grew past 4 GB and deep
// nesting overflowed the stack).

const single = { architecture: 'single' as const };
const issuesOf = (text: string): string[] => {
  const result = validateScenarioText(text);
  expect(result.ok, text.slice(0, 80)).toBe(false);
  return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`);
};
const counts = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

export const LIMIT_CASES: [string, () => string, RegExp][] = [
  ['servers over 64', () => JSON.stringify(createScenario({ servers: Array(65).fill(single) })), /^servers: must have at most 64 items, got 65$/],
  ['phases over 64', () => JSON.stringify(createScenario({ phases: Array(65).fill(createBurstPhase()) })), /^phases: must have at most 64 items, got 65$/],
  ['request templates over 256', () => JSON.stringify(createScenario({ phases: [createBurstPhase({ requests: Array(257).fill({ path: '/' }) })] })), /^phases\[0\]\.requests: must have at most 256 items/],
  ['200,000 nested arrays', () => '['.repeat(200_000), /^\(json\): nested deeper than 64 arrays\/objects at line 1, column 65$/],
  ['100,000 nested objects, unterminated', () => '{"a":'.repeat(100_000), /^\(json\): nested deeper than 64/],
  ['a 2 MB scenario', () => JSON.stringify(createScenario({ title: 'x'.repeat(2_000_000) })), /^\(json\): the text is \d+ bytes; a scenario may have at most 1048576$/],
  ['1,000 cells', () => JSON.stringify(createScenario({ matrix: { 'phases[0].count': counts(1001) } })), /^matrix: makes 1001 cells; at most 1000/],
  ['64 servers x 100 cells', () => JSON.stringify(createScenario({ servers: Array(64).fill(single), matrix: { 'phases[0].count': counts(100) } })), /^matrix: makes 6400 server runs \(cells x servers\)/],
  ['server lists in the matrix', () => JSON.stringify(createScenario({ matrix: { 'phases[0].count': counts(10), servers: [Array(64).fill(single), Array(64).fill(single)] } })), /^matrix: makes 1280 server runs/],
  ['100 cells of a 900 KB scenario', () => JSON.stringify(createScenario({ title: 'x'.repeat(900_000), matrix: { 'phases[0].count': counts(100) } })), /^matrix: makes 100 cells of up to \d+ KB each \(\d+ MB\); at most 64 MB in all$/],
];

describe('scenario limits', () => {
  for (const [name, make, expected] of LIMIT_CASES) {
    it(`refuses ${name} with one line naming the path`, () => {
      const issues = issuesOf(make());
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatch(expected);
      expect(issues[0]).not.toContain('\n');
    });
  }

  it('keeps nesting and values inside strings out of the depth count', () => {
    expect(validateScenarioText(JSON.stringify(createScenario({ title: '['.repeat(1000) + '\\"{{{' }))).ok).toBe(true);
  });
});

describe('loadscope validate on hostile files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-limits-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args], { cwd: packageRoot(), encoding: 'utf8', timeout: 60_000 });

  it('deep nesting: a one-line error and exit 2, not a stack overflow', () => {
    const path = join(dir, 'deep.json');
    writeFileSync(path, '['.repeat(500_000));
    const result = cli('validate', path);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('nested deeper than 64 arrays/objects at line 1, column 65');
    expect(result.stderr).not.toMatch(/RangeError|stack/i);
  });

  it('a directory is said to be a directory', () => {
    const sub = join(dir, 'scenarios.json');
    mkdirSync(sub);
    const result = cli('validate', sub);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is a directory, not a scenario file');
  });

  it('a file over the size limit is refused without being read', () => {
    const path = join(dir, 'big.json');
    writeFileSync(path, ' '.repeat(3 * 1024 * 1024));
    const result = cli('validate', path);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/is \d+ bytes; a scenario may have at most 1048576/);
  });
});
