import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_RUN_INSTANCES } from '../contract/instances.js';
import { rootPath } from '../engine/paths.js';

// `loadscope run --instances N` (issue 40) is bounded and needs k6: a count out of range, not a
// whole number, or given to the native driver is one line on stderr and exit 2, before any load.

const BIN = rootPath('bin/loadscope.js');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-instances-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scenario = join(dir, 'tiny.json');
writeFileSync(scenario, JSON.stringify({ name: 'tiny', servers: [{ architecture: 'single' }], phases: [{ executor: 'sequential', count: 1, requests: [{ path: '/sleep?ms=1' }] }] }));
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, 'run', scenario, ...args, '--db', join(dir, 'runs.db')], { encoding: 'utf8', timeout: 120_000 });

describe('loadscope run --instances', () => {
  it.each([['0'], [String(MAX_RUN_INSTANCES + 1)], ['2.5'], ['two']])('--instances %s: one line naming the bound, exit 2, no run stored', (n) => {
    const r = cli(['--engine', 'k6', '--instances', n]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(`instances: "${n}" is not a whole number from 1 to ${MAX_RUN_INSTANCES}`)]);
  });

  it('--instances without --engine k6: one line saying to add it, exit 2', () => {
    const r = cli(['--instances', '2']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('--instances runs several k6 processes: add --engine k6')]);
  });
});
