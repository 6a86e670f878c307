import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';

// The suite says what it did not run: a real vitest runs skip-fixture.ts (a test of each kind: run,
// skipped by skipUnless, a group skipped, skipped by skipNow once running, skipped with no reason)
// with the reporters of vitest.config.ts; and its JSON report (what scripts/reliability-doc.mjs reads)
// is turned into docs/reliability.md's rows by that script itself.

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-skipped-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const FIXTURE = 'engine/test-support/skip-fixture.ts';
const NAME = `${FIXTURE} > fixture`;

const SUITE_REPORTERS = ['default', rootPath('engine/test-support/skipped-reporter.ts')];

/** vitest run of the fixture with these reporters (by default the suite's, as vitest.config.ts has them): its stdout. */
function vitest(args: string[] = [], reporters: unknown[] = SUITE_REPORTERS): string {
  const config = join(dir, 'vitest.fixture.config.mjs');
  writeFileSync(config, `export default ${JSON.stringify({ root: rootPath('.'), test: { include: [FIXTURE], reporters } })};\n`);
  const r = spawnSync(rootPath('node_modules/.bin/vitest'), ['run', '--config', config, ...args], { cwd: rootPath('.'), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('what the suite did not run', () => {
  it('a run with skips: one line after vitest\'s own closing lines names each skipped test with its reason', () => {
    const lines = vitest().trimEnd().split('\n');
    const last = lines.at(-1)!;
    expect(last).toBe(
      `skipped 5: ${NAME} > is skipped before it starts (reason A); ` +
        `${NAME} > a group > one, ${NAME} > a group > two (reason B); ` +
        `${NAME} > is skipped once running (reason C); ` +
        `${NAME} > is skipped with no reason (no reason given)`,
    );
    // vitest's closing lines (CI reads them) are there as they were, before it
    const tests = lines.findIndex((l) => /^\s*Tests\s+2 passed \| 5 skipped \(7\)$/.test(l));
    expect(tests, lines.join('\n')).toBeGreaterThan(-1);
    expect(lines.some((l) => /^\s*Test Files\s+1 passed \(1\)$/.test(l))).toBe(true);
    expect(lines.findIndex((l) => l.startsWith('skipped '))).toBeGreaterThan(tests);
  });

  it('a run filtered by name (-t): the tests the filter left out are counted, not named as skipped', () => {
    const last = vitest(['-t', 'is skipped once running']).trimEnd().split('\n').at(-1);
    expect(last).toBe(`skipped 1: ${NAME} > is skipped once running (reason C) (and 6 left out by the name filter)`);
  });

  it('docs/reliability.md rows from that report: held only where the test ran, else skipped with its reason', () => {
    const json = join(dir, 'results.json');
    vitest([], [['json', { outputFile: json }]]);
    const r = spawnSync(process.execPath, [rootPath('scripts/reliability-doc.mjs'), '--rows', json], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'held: fixture: runs',
      'skipped (reason A): fixture: is skipped before it starts',
      'held: fixture: runs where its condition holds',
      'skipped (reason B): fixture > a group: one',
      'skipped (reason B): fixture > a group: two',
      'skipped (reason C): fixture: is skipped once running',
      'skipped (no reason given): fixture: is skipped with no reason',
    ]);
  });
});
