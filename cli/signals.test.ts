import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORED_ROWS_SQL } from '../db/test-support/stored-rows.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

// SIGTERM and SIGHUP are handled like Ctrl-C in every verb that runs load: the run stops, what was
// measured is kept, the run is stored as cancelled naming the signal, and the exit code is 128+n.
// Each test spawns the real CLI, waits until requests are stored, signals it, then reads the file.

const BIN = rootPath('bin/loadscope.js');
let dir: string;
let child: ChildProcess | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-sig-'));
});
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = null;
  rmSync(dir, { recursive: true, force: true });
});

const longScenario = createScenario({ name: 'long', phases: [{ executor: 'rate', rate: 50, durationMs: 60_000, requests: [{ path: '/fib?n=10' }] }] });

function readDb<T>(db: string, sql: string): T | undefined {
  try {
    const file = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return file.prepare(sql).get() as T;
    } finally {
      file.close();
    }
  } catch {
    return undefined;
  }
}

/** Spawns the CLI; resolves its exit code. */
function start(args: string[]): { exited: Promise<number | null>; output: () => string } {
  let output = '';
  const proc = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return { exited: new Promise((resolve) => proc.on('exit', (code) => resolve(code))), output: () => output };
}

async function untilRowsStored(db: string, output: () => string): Promise<number> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    expect(child?.exitCode, `the process ended before the signal: ${output()}`).toBeNull();
    expect(Date.now(), `no requests were stored: ${output()}`).toBeLessThan(deadline);
    const n = readDb<{ n: number }>(db, `SELECT ${STORED_ROWS_SQL} AS n`)?.n ?? 0;
    if (n > 10) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function lastRun(db: string) {
  return readDb<{ status: string; reason: string; requests: number }>(
    db,
    `SELECT status, reason, ${STORED_ROWS_SQL} AS requests FROM runs ORDER BY id DESC LIMIT 1`,
  );
}

describe('signals stop load cleanly', () => {
  it('run: SIGTERM cancels, keeps what was measured, names the signal, exits 143', async () => {
    const file = join(dir, 'long.json');
    writeFileSync(file, JSON.stringify(longScenario));
    const db = join(dir, 'runs.db');
    const { exited, output } = start(['run', file, '--json', '--db', db]);
    const before = await untilRowsStored(db, output);
    child!.kill('SIGTERM');
    expect(await exited, output()).toBe(143);
    const run = lastRun(db)!;
    expect(run).toMatchObject({ status: 'cancelled', reason: 'cancelled by SIGTERM' });
    expect(run.requests).toBeGreaterThanOrEqual(before);
  });

  it('run: SIGHUP does the same, exits 129', async () => {
    const file = join(dir, 'long.json');
    writeFileSync(file, JSON.stringify(longScenario));
    const db = join(dir, 'runs.db');
    const { exited, output } = start(['run', file, '--db', db]);
    await untilRowsStored(db, output);
    child!.kill('SIGHUP');
    expect(await exited, output()).toBe(129);
    expect(lastRun(db)).toMatchObject({ status: 'cancelled', reason: 'cancelled by SIGHUP' });
  });

  it('reproduce: SIGTERM cancels the current seed run and writes no document, exits 143', async () => {
    const db = join(dir, 'runs.db');
    const out = join(dir, 'reproductions.md');
    const { exited, output } = start(['reproduce', '--only', '001', '--out', out, '--db', db]);
    await untilRowsStored(db, output);
    child!.kill('SIGTERM');
    expect(await exited, output()).toBe(143);
    expect(lastRun(db)).toMatchObject({ status: 'cancelled', reason: 'cancelled by SIGTERM' });
  });

  it('ui: SIGHUP cancels the run in progress and exits 129', async () => {
    const db = join(dir, 'runs.db');
    const { exited, output } = start(['ui', '--port', '0', '--db', db]);
    const deadline = Date.now() + 30_000;
    let url: URL | null = null;
    while (url === null) {
      expect(Date.now(), output()).toBeLessThan(deadline);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output());
      if (m) url = new URL(m[1]!);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const res = await fetch(`${url.origin}/api/runs:start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-loadscope-token': url.searchParams.get('token')! },
      body: JSON.stringify({ scenario: { text: JSON.stringify(longScenario) } }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await untilRowsStored(db, output);
    child!.kill('SIGHUP');
    expect(await exited, output()).toBe(129);
    expect(lastRun(db)).toMatchObject({ status: 'cancelled', reason: 'cancelled by SIGHUP' });
  });
});
