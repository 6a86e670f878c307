import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORED_ROWS_SQL } from '../db/test-support/stored-rows.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';

// A run killed with SIGKILL (no handler runs) is found 'interrupted' on the next start; `list`,
// `show` and `show --json` then give the requests it stored, not 0: a phase's figures are stored
// only when it ends, its rows as it runs. Each test spawns the real CLI against a bundled server,
// waits until the SQLite file holds rows (the real signal, polled), kills it, then reads it back
// through the CLI.

const BIN = rootPath('bin/loadscope.js');
let dir = '';
let child: ChildProcess | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-killed-'));
});
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = null;
  rmSync(dir, { recursive: true, force: true });
});

const rate = { name: 'steady', executor: 'rate' as const, rate: 50, durationMs: 60_000, requests: [{ path: '/fib?n=10' }] };

function readDb(db: string, sql: string): number {
  try {
    const file = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return Number(file.prepare(sql).pluck().get() ?? 0);
    } finally {
      file.close();
    }
  } catch {
    // not created yet, or mid-write: asked again
    return 0;
  }
}

/** Starts `loadscope run` on the scenario and SIGKILLs it once `ready` holds of the file; the rows then stored. */
async function killedRun(scenario: object, ready: (db: string) => boolean): Promise<{ db: string; stored: number }> {
  const file = join(dir, 'long.json');
  writeFileSync(file, JSON.stringify(scenario));
  const db = join(dir, 'runs.db');
  let output = '';
  const proc = spawn(process.execPath, [BIN, 'run', file, '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<string | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
  const deadline = Date.now() + 90_000;
  while (!ready(db)) {
    expect(proc.exitCode, `the run ended before it was killed: ${output}`).toBeNull();
    expect(Date.now(), `nothing was stored: ${output}`).toBeLessThan(deadline);
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return { db, stored: readDb(db, 'SELECT coalesce(sum(raw_rows), 0) FROM targets') };
}

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('a run killed with SIGKILL', () => {
  it('in its first phase (no phase ended): list, show and show --json give the requests it stored', async () => {
    const { db, stored } = await killedRun(createScenario({ name: 'killed', phases: [rate] }), (f) => readDb(f, `SELECT ${STORED_ROWS_SQL}`) > 20);
    expect(stored).toBeGreaterThan(20);
    const [listed] = JSON.parse(cli(['list', '--json', '--db', db])) as { id: number; status: string; requests: number }[];
    expect(listed).toMatchObject({ status: 'interrupted', requests: stored });
    const json = JSON.parse(cli(['show', String(listed!.id), '--json', '--db', db])) as { servers: { requests: number; phases: unknown[] }[] };
    expect(json.servers[0]).toMatchObject({ requests: stored, phases: [] });
    const text = cli(['show', String(listed!.id), '--db', db]);
    expect(text).toMatch(new RegExp(`^single: failed +${stored.toLocaleString('en-US')}$`, 'm'));
    expect(text).toContain(`stored: single: ${stored.toLocaleString('en-US')} requests of a phase that did not end`);
  });

  it('in its second server run (the first ended): the count is the first\'s phase plus the rows the second stored', async () => {
    // two matrix cells, one server run each: a second of load, then a minute; a server run's phase
    // figures are stored when it ends, so the first one's are in the file when the second is killed
    const scenario = createScenario({ name: 'killed-later', phases: [rate], matrix: { 'phases[0].durationMs': [1000, 60_000] } });
    const secondRows = 'SELECT raw_rows FROM targets ORDER BY id LIMIT 1 OFFSET 1';
    const { db, stored } = await killedRun(scenario, (f) => readDb(f, secondRows) > 20);
    const [listed] = JSON.parse(cli(['list', '--json', '--db', db])) as { id: number; status: string; requests: number }[];
    expect(listed).toMatchObject({ status: 'interrupted', requests: stored });
    const json = JSON.parse(cli(['show', String(listed!.id), '--json', '--db', db])) as { servers: { name: string; requests: number; phases: { count: number }[] }[] };
    const [first, second] = json.servers;
    expect(first!.phases.map((p) => p.count)).toEqual([first!.requests]);
    expect(second!.phases).toEqual([]);
    expect(second!.requests).toBeGreaterThan(20);
    expect(first!.requests + second!.requests).toBe(stored);
    const text = cli(['show', String(listed!.id), '--db', db]);
    expect(text).toContain(`${second!.name}: failed`);
    expect(text).toContain(`stored: ${second!.name}: ${second!.requests.toLocaleString('en-US')} requests of a phase that did not end`);
  });
});
