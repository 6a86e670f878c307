import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORED_ROWS_SQL } from '../../db/test-support/stored-rows.js';
import { STALL_WINDOWS } from '../driver/driver.js';
import { runDriverInChild } from '../driver/test-support/child-driver.js';
import { closed } from '../driver/test-support/phases.js';
import { startTestServer, type TestServer } from '../driver/test-support/server.js';
import { DEFAULT_WINDOW_MS } from '../driver/types.js';
import { rootPath } from '../paths.js';

// The main thread watches the driver's worker: one that stops reporting while a phase runs (a
// thread stuck in a synchronous loop) is ended after STALL_WINDOWS windows of silence. The rows it
// already sent are kept, and its server run fails with one line naming the phase and the rows kept.
// Before, the run waited on the stuck thread for ever: no phase deadline can fire in a thread that
// never returns to its event loop. The stall is real and comes from outside the shipped code: a
// preload (NODE_OPTIONS --require, which worker threads run too) makes the driver's worker spin in
// a synchronous loop right after it has sent its first request rows. (Extract regexes, the stall
// first found, now run in linear time and can no longer do it: linear-regexp.test.ts.)

let dir = '';
let server: TestServer | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-watchdog-'));
});
afterEach(async () => {
  await server?.close();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

/** A preload that stalls the driver's worker thread (the one given a plan) after its first rows, for at most 60 s. */
function stallPreload(): Record<string, string> {
  const file = join(dir, 'stall-driver-worker.cjs');
  writeFileSync(
    file,
    `const wt = require('node:worker_threads');
if (!wt.isMainThread && wt.workerData && wt.workerData.plan) {
  const port = wt.parentPort;
  const post = port.postMessage.bind(port);
  port.postMessage = (msg, transfer) => {
    post(msg, transfer);
    if (msg && msg.type === 'rows' && msg.count > 0) {
      const end = Date.now() + 60000;
      while (Date.now() < end) {}
    }
  };
}
`,
  );
  return { NODE_OPTIONS: `--require ${file}` };
}

describe("a driver worker stuck in a synchronous loop mid-phase (the watchdog's heartbeat: windows and row batches)", () => {
  it('in the driver: the worker is ended, the rows it sent are kept, the failure names the phase and the rows', async () => {
    server = await startTestServer();
    const phase = { ...closed(1, { durationMs: 60_000 }), name: 'steady' };
    const { result, rows } = await runDriverInChild(server.url, [phase], stallPreload());
    expect(rows.length).toBeGreaterThan(0);
    const silentS = (STALL_WINDOWS * DEFAULT_WINDOW_MS) / 1000;
    expect(result.failure).toMatch(new RegExp(`^the load driver stopped answering during phase 'steady' \\(nothing from it for ${silentS} s, \\d+\\.\\d s after the start\\); ${rows.length.toLocaleString('en-US')} request rows? kept$`));
    expect(result.phases).toEqual([]);
  }, 90_000);

  it('in a whole run (the real CLI): the server run fails with that line, and the request rows it names are in the store', () => {
    const file = join(dir, 'watchdog.json');
    const db = join(dir, 'runs.db');
    writeFileSync(file, JSON.stringify({ name: 'watchdog', servers: [{ architecture: 'single' }], phases: [{ name: 'steady', executor: 'closed', users: 1, durationMs: 60_000, requests: [{ path: '/fib?n=5' }] }] }));
    const run = spawnSync(process.execPath, [rootPath('bin/loadscope.js'), 'run', file, '--db', db, '--json'], { encoding: 'utf8', env: { ...process.env, ...stallPreload() }, timeout: 85_000 });
    expect(run.signal, run.stderr).toBeNull();
    const read = new Database(db, { readonly: true });
    const stored = read.prepare(`SELECT ${STORED_ROWS_SQL}`).pluck().get() as number;
    const target = read.prepare('SELECT status, reason FROM targets').get() as { status: string; reason: string };
    read.close();
    expect(stored).toBeGreaterThan(0);
    expect(target.status).toBe('failed');
    expect(target.reason).toMatch(new RegExp(`^the load driver stopped answering during phase 'steady' \\(nothing from it for \\d+ s, \\d+\\.\\d s after the start\\); ${stored.toLocaleString('en-US')} request rows? kept$`));
  }, 90_000);
});
