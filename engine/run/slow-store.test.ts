import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORED_ROWS_SQL } from '../../db/test-support/stored-rows.js';
import { rootPath } from '../paths.js';

// A store that falls behind (issue 42, back-pressure on row batches): the main thread stalls on
// row batches while the bundled server (a process of its own) goes on answering, so the driver's
// worker holds once its lent batches are all out, and goes on when they come back. The whole run
// still ends, every request it made stored once. (The bound itself, batches done while the listener
// stalls, is engine/driver/measure/row-sink.test.ts's.) The stall comes from outside the shipped
// code: a preload (NODE_OPTIONS --require) blocks the main thread as the worker's first row
// batches arrive, 1.5 s each, and notes each stall in a file.

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-slow-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const STALLS = 3;

function stallingStorePreload(log: string): Record<string, string> {
  const file = join(dir, 'stall-main-thread.cjs');
  writeFileSync(
    file,
    `const wt = require('node:worker_threads');
const fs = require('node:fs');
if (wt.isMainThread) {
  const emit = wt.Worker.prototype.emit;
  let stalls = 0;
  wt.Worker.prototype.emit = function (name, msg, ...rest) {
    if (name === 'message' && msg && msg.type === 'rows' && msg.count > 0 && stalls < ${STALLS}) {
      stalls++;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
      fs.appendFileSync(${JSON.stringify(log)}, 'stalled\\n');
    }
    return emit.call(this, name, msg, ...rest);
  };
}
`,
  );
  return { NODE_OPTIONS: `--require ${file}` };
}

describe('a store that falls behind in a whole run (the real CLI)', () => {
  it('the main thread stalls 1.5 s on each of three row batches: the run still completes, every request stored once', () => {
    const file = join(dir, 'slow-store.json');
    const db = join(dir, 'runs.db');
    const log = join(dir, 'stalls.log');
    writeFileSync(file, JSON.stringify({ name: 'slow-store', servers: [{ architecture: 'single' }], phases: [{ name: 'steady', executor: 'closed', users: 8, count: 6000, requests: [{ path: '/fib?n=5' }] }] }));
    const run = spawnSync(process.execPath, [rootPath('bin/loadscope.js'), 'run', file, '--db', db, '--json'], { encoding: 'utf8', env: { ...process.env, ...stallingStorePreload(log) }, timeout: 85_000 });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toHaveLength(STALLS);
    const read = new Database(db, { readonly: true });
    const stored = read.prepare(`SELECT ${STORED_ROWS_SQL}`).pluck().get() as number;
    const target = read.prepare('SELECT status, raw_rows AS rawRows FROM targets').get() as { status: string; rawRows: number };
    const counted = read.prepare('SELECT sum(count) FROM phases').pluck().get() as number;
    read.close();
    expect(target.status).toBe('completed');
    expect(counted).toBe(6000);
    expect(target.rawRows).toBe(6000);
    expect(stored).toBe(6000);
  }, 90_000);
});
