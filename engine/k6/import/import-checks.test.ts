import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_CHECK_NAME_CHARS, MAX_CHECKS } from '../../../contract/checks.js';
import { phaseEndpoints } from '../../../contract/results.js';
import { requestLine } from '../test-support/k6-points.js';
import { importK6Files } from './import-k6.js';
import { useTempStore } from '../../../db/test-support/temp-store.js';

// k6's `checks` points in an import (issue 40): a Loadscope script runs each check as a k6 check()
// named as the native driver names it and tagged with its request's name, so the stored endpoints
// count passes and fails per check, as natively. Hostile files stay bounded: checks past MAX_CHECKS
// per endpoint are not counted, a long name is cut, a check of a server run that has no request
// adds nothing, and two files' counts add up.

const temp = useTempStore();

const file = (name: string, lines: string[]) => {
  const path = join(temp.dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
};

const checkLine = (check: string, passed: boolean, endpoint = 'login', server = 'single') =>
  JSON.stringify({ metric: 'checks', type: 'Point', data: { time: '2026-01-01T00:00:00.050000000Z', value: passed ? 1 : 0, tags: { cell: '0', server, phase: 'phase 1', phase_idx: '0', scenario: 'p0_phase_1', check, name: endpoint } } });

async function checksOf(paths: string[]) {
  const { runId } = await importK6Files(temp.store, paths);
  return phaseEndpoints(temp.store.getRun(runId).targets[0]!.phases[0]!).map((e) => [e.name, e.checks]);
}

describe('import-k6 and checks', () => {
  it("checks of two files: each counted under its endpoint and name, the files' counts adding up", async () => {
    const requests = [0, 1, 2].map((i) => requestLine({ endMs: 10 + i, totalMs: 2, phase: 0, name: i === 2 ? 'me' : 'login' }));
    const a = file('a.json', [...requests, checkLine('status 200', true), checkLine('status 200', false), checkLine('is nobody', false, 'me')]);
    const b = file('b.json', [checkLine('status 200', true), checkLine('other server', true, 'login', 'elsewhere')]);
    expect(await checksOf([a, b])).toEqual([
      ['login', [{ name: 'status 200', passes: 2, fails: 1 }]],
      ['me', [{ name: 'is nobody', passes: 0, fails: 1 }]],
    ]);
  });

  it(`a file with ${MAX_CHECKS + 8} check names on one endpoint and one of 5000 characters: ${MAX_CHECKS} counted, the long one cut`, async () => {
    const long = 'x'.repeat(5000);
    const lines = [requestLine({ endMs: 10, totalMs: 2, phase: 0, name: 'login' }), checkLine(long, true), ...Array.from({ length: MAX_CHECKS + 8 }, (_, i) => checkLine(`c${i}`, true))];
    const [[, checks]] = (await checksOf([file('many.json', lines)])) as [[string, { name: string }[]]];
    expect(checks).toHaveLength(MAX_CHECKS);
    expect(checks[0]!.name).toHaveLength(MAX_CHECK_NAME_CHARS);
  });
});
