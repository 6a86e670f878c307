import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findK6, k6Status } from '../engine/k6/k6-binary.js';
import { rootPath } from '../engine/paths.js';
import { skipUnless } from '../engine/test-support/skip.js';
import { countingServer, ownAddressOutsideLoopback, writeK6SentElsewhere, type CountingServer } from './test-support/elsewhere.js';
import type { RunJson } from './test-support/run-json.js';

// `loadscope run --engine k6` keeps its load on this machine without --allow-remote, end to end:
// the real CLI, the real k6, and "elsewhere" played by this machine's own address outside loopback
// (never anything off it), where a server counts every connection. A server named there is refused
// before anything connects; and k6 itself sent there (its LOADSCOPE_TARGET replaced on the way in)
// connects nowhere, because the run hands k6 its block list. Passing allowRemote: true anywhere on
// that path (the consent given, readiness, the k6 generator) fails a test here.

const k6 = k6Status();
const own = ownAddressOutsideLoopback();
const needs = skipUnless(k6.available && own !== null, k6.hint ?? 'this machine has no address outside loopback to stand for elsewhere');

let dir = '';
let elsewhere: CountingServer | null = null;
let loopback: CountingServer | null = null;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-loopback-'));
});
afterEach(async () => {
  await Promise.all([elsewhere?.close(), loopback?.close()]);
  elsewhere = loopback = null;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `loadscope run <scenario> --engine k6 --json` in its own process (the servers here answer meanwhile). */
function run(name: string, url: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string; json: RunJson | null }> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, servers: [{ architecture: 'external', url }], phases: [{ name: 'load', executor: 'sequential', count: 3, requests: [{ path: '/x' }] }] }));
  const argv = [rootPath('bin/loadscope.js'), 'run', file, '--engine', 'k6', '--json', '--db', join(dir, `${name}.db`), ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      let json: RunJson | null = null;
      try {
        json = JSON.parse(stdout) as RunJson;
      } catch {
        json = null;
      }
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr, json });
    });
  });
}

describe('run --engine k6 and an address outside loopback', needs, () => {
  it("a server on this machine's own address outside loopback, without --allow-remote: refused in one line naming it, and nothing connects there", async () => {
    elsewhere = await countingServer(own!.address);
    const out = await run('named-elsewhere', elsewhere.url);
    expect(out.code).not.toBe(0);
    expect(out.stderr.trim()).toBe(`loadscope: this run has a local k6 binary run a script Loadscope generates, sending load to ${own!.host}; k6 is given only addresses on this machine (127.0.0.0/8, ::1), so each must resolve to one, even with consent; confirm it in the UI or pass --allow-remote (LS_ERR_NEEDS_CONSENT)`);
    expect(await elsewhere.settledCount()).toBe(0);
  });

  it('k6 sent to that address instead of the loopback target, without --allow-remote: every request blocked by its block list, and nothing connects there', async () => {
    elsewhere = await countingServer(own!.address);
    loopback = await countingServer('127.0.0.1');
    const out = await run('sent-elsewhere', loopback.url, [], { LOADSCOPE_K6: writeK6SentElsewhere(dir, findK6()!, elsewhere.url) });
    expect(out.code, out.stderr).toBe(0);
    const phase = out.json!.servers[0]!.phases[0]!;
    expect(phase.count).toBe(3);
    expect(Object.values(phase.errors).reduce((n, e) => n + e, 0)).toBe(3);
    expect(await elsewhere.settledCount()).toBe(0);
  });

  it('the same with --allow-remote: k6 reaches that address (what the two above count is real)', async () => {
    elsewhere = await countingServer(own!.address);
    loopback = await countingServer('127.0.0.1');
    const out = await run('allowed-elsewhere', loopback.url, ['--allow-remote'], { LOADSCOPE_K6: writeK6SentElsewhere(dir, findK6()!, elsewhere.url) });
    expect(out.code, out.stderr).toBe(0);
    const phase = out.json!.servers[0]!.phases[0]!;
    expect(Object.values(phase.errors).reduce((n, e) => n + e, 0)).toBe(0);
    expect(await elsewhere.settledCount()).toBeGreaterThan(0);
  });
});
