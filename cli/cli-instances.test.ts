import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_RUN_INSTANCES } from '../contract/instances.js';
import { rootPath } from '../engine/paths.js';

// `loadscope run --instances N` (issue 40) is bounded and needs k6: a count out of range, not a
// whole number, or given to the native driver is one line on stderr and exit 2, before any load.
// An instance that fails stops its siblings (a stand-in k6, LOADSCOPE_K6, that fails as instance 1
// and waits as instance 0 until it is interrupted), and the run's reason names the instance.

const BIN = rootPath('bin/loadscope.js');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-instances-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scenario = join(dir, 'tiny.json');
writeFileSync(scenario, JSON.stringify({ name: 'tiny', servers: [{ architecture: 'single' }], phases: [{ executor: 'sequential', count: 1, requests: [{ path: '/sleep?ms=1' }] }] }));
const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, 'run', scenario, ...args, '--db', join(dir, 'runs.db')], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });

/**
 * A stand-in k6: `version` answers; instance 0 says it is ready (its SIGINT handler set), then waits
 * two minutes unless interrupted, writing `stopped` when it is; instance 1 waits for that ready mark
 * (at most 30 s), then fails.
 */
const FAKE_K6 = `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
if (args[0] === 'version') { console.log('k6 v1.8.1 (stand-in)'); process.exit(0); }
const instance = (args.find((a) => a.startsWith('ls_instance=')) || 'ls_instance=0').split('=')[1];
const [ready, stopped] = [process.env.FAKE_K6_READY, process.env.FAKE_K6_STOPPED];
if (instance === '1') {
  const until = Date.now() + 30000;
  const wait = () => (fs.existsSync(ready) || Date.now() > until ? (console.error('boom: instance 1 cannot start'), process.exit(1)) : setTimeout(wait, 20));
  wait();
} else {
  process.on('SIGINT', () => { fs.writeFileSync(stopped, 'stopped'); process.exit(130); });
  fs.writeFileSync(ready, 'ready');
  setTimeout(() => process.exit(0), 120000);
}
`;

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

  it('an instance that fails: its sibling is interrupted, the run fails naming the instance and its last words', () => {
    const fake = join(dir, 'k6');
    writeFileSync(fake, FAKE_K6);
    chmodSync(fake, 0o755);
    const [ready, stopped] = [join(dir, 'ready'), join(dir, 'stopped')];
    const r = cli(['--engine', 'k6', '--instances', '2', '--json'], { LOADSCOPE_K6: fake, FAKE_K6_READY: ready, FAKE_K6_STOPPED: stopped });
    const runId = (JSON.parse(r.stdout) as { runId: number }).runId;
    const shown = spawnSync(process.execPath, [BIN, 'show', String(runId), '--json', '--db', join(dir, 'runs.db')], { encoding: 'utf8', timeout: 60_000 });
    const server = (JSON.parse(shown.stdout) as { servers: { status: string; reason: string | null }[] }).servers[0]!;
    expect(server.status).toBe('failed');
    expect(server.reason).toMatch(/^k6 instance 1 exited with code 1: boom: instance 1 cannot start/);
    expect(readFileSync(stopped, 'utf8')).toBe('stopped');
  }, 120_000);
});
