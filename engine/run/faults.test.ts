import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toApiError } from '../../contract/errors.js';
import { openStore } from '../../db/store.js';
import { newRun } from '../../db/test-support/factories.js';
import { STORED_ROWS_SQL } from '../../db/test-support/stored-rows.js';
import { runDriver, type DriverWindow } from '../driver/driver.js';
import { rate } from '../driver/test-support/phases.js';
import { startTestServer, type TestServer } from '../driver/test-support/server.js';
import { createEngine } from '../engine.js';
import { k6Status } from '../k6/k6-binary.js';
import { rootPath } from '../paths.js';
import { listProcs } from '../supervisor/process-tree.js';
import { createScenario } from '../scenario/test-support/factories.js';
import { skipNow } from '../test-support/skip.js';
import { onWorkerStarted } from '../test-support/worker-capture.js';

// Faults mid-run keep everything measured so far and record what happened and when: the driver's
// worker thread dying, the store's disk filling up (a real full tmpfs where it can be mounted, and
// SQLite's max_page_count),
// a database that cannot be written (opened read-only), a damaged run (still deletable), and SQLite
// errors that always carry their code. (A server killed mid-run: orchestrator.test.ts.)

// The driver's worker thread, for the test that kills it: the driver carries no hook for it.
vi.mock('../paths.js', async (original) => (await import('../test-support/worker-capture.js')).capturingPaths(await original<typeof import('../paths.js')>()));

let dir: string;
let server: TestServer | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-faults-'));
});
afterEach(async () => {
  await server?.close();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

/** Creates the store at `dbPath` and says how many pages it fills: a disk-full test caps the file a few pages above. */
function newStorePages(dbPath: string): number {
  openStore(dbPath).close();
  const db = new Database(dbPath);
  try {
    return db.pragma('page_count', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** Descendant processes of this one whose command line contains `needle` (Linux /proc). */
async function descendants(needle: string): Promise<number[]> {
  const procs = await listProcs();
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (mine.has(p.ppid) && !mine.has(p.pid)) {
        mine.add(p.pid);
        grew = true;
      }
    }
  }
  mine.delete(process.pid);
  return [...mine].filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
    } catch {
      return false;
    }
  });
}

describe('faults mid-run', () => {
  it("a bundled server's worker killed: the run goes on with the others and records which, how and when", async () => {
    const dbPath = join(dir, 'runs.db');
    const engine = createEngine({ dbPath });
    // 20 s of load leaves a wide window to find a worker on a busy machine; the kill comes once
    // requests are stored, so the run has both workers' answers before and one worker's after.
    const scenario = createScenario({
      name: 'worker-killed',
      servers: [{ architecture: 'cluster', options: { workers: 2 } }],
      phases: [{ executor: 'rate', rate: 50, durationMs: 20_000, requests: [{ path: '/fib?n=5' }] }],
    });
    const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    const deadline = Date.now() + 90_000;
    let victim: number | undefined;
    while (victim === undefined) {
      expect(Date.now(), 'no request was stored').toBeLessThan(deadline);
      expect(engine.store.getRun(runId).status, 'the run ended before a worker could be found').toBe('running');
      const rows = [...engine.store.iterateRequests(runId)].length;
      if (rows > 20) victim = (await descendants('cluster-worker'))[0];
      if (victim === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    process.kill(victim, 'SIGKILL');
    await engine.waitForRun(runId);
    const run = await engine.handlers['runs:get']({ runId });
    await engine.close();
    expect(run.status).toBe('completed');
    expect(run.targets[0]!.reason).toMatch(new RegExp(`worker ${victim} exited \\(SIGKILL\\), \\d+\\.\\d s after the start`));
    expect(run.targets[0]!.phases[0]!.count).toBeGreaterThan(20);
  }, 150_000);

  it("the driver's worker thread dying: what it measured is kept, the death and its time are recorded", async () => {
    server = await startTestServer();
    const windows: DriverWindow[] = [];
    let killed = false;
    onWorkerStarted((worker) => {
      const timer = setInterval(() => {
        if (windows.reduce((n, w) => n + w.count, 0) > 20 && !killed) {
          killed = true;
          clearInterval(timer);
          void worker.terminate();
        }
      }, 20);
    });
    const result = await runDriver({ baseUrl: server.url, phases: [rate(200, 60_000)] }, { onWindow: (w) => windows.push(w) }).finally(() => onWorkerStarted(null));
    expect(killed).toBe(true);
    expect(result.failure).toMatch(/^the load driver's worker thread exited \(code 1\) \d+\.\d s after the start$/);
    expect(windows.reduce((n, w) => n + w.count, 0)).toBeGreaterThan(20);
  });

  it('the disk filling up mid-run: the run fails naming SQLITE_FULL and when, and keeps what was stored', async () => {
    const dbPath = join(dir, 'runs.db');
    const pages = newStorePages(dbPath);
    const engine = createEngine({ dbPath, store: { maxPageCount: pages + 24 } });
    const scenario = createScenario({ name: 'fill', phases: [{ executor: 'rate', rate: 400, durationMs: 60_000, requests: [{ path: '/fib?n=5' }] }] });
    const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
    await engine.waitForRun(runId);
    const run = await engine.handlers['runs:get']({ runId });
    await engine.close();
    expect(run.status).toBe('failed');
    expect(run.targets[0]!.reason).toMatch(/^disk full: the store stopped taking writes \d+\.\d s after the start \(.*SQLITE_FULL.*\); [\d,]+ request rows? (was|were) kept$/);
    const db = new Database(dbPath, { readonly: true });
    const kept = db.prepare(`SELECT ${STORED_ROWS_SQL}`).pluck().get() as number;
    const status = db.prepare('SELECT status FROM runs WHERE id = ?').pluck().get(runId);
    db.close();
    expect(kept).toBeGreaterThan(0);
    expect(status).toBe('failed');
  });

  it('the disk filling up in a k6 run: its rows go through the same guard, so the server run fails the same way, its phases kept', async (ctx) => {
    const k6 = k6Status();
    if (!k6.available) return skipNow(ctx, k6.hint ?? 'k6 is not installed');
    const dbPath = join(dir, 'runs.db');
    const pages = newStorePages(dbPath);
    // k6's rows are stored after its load, up to 4,096 at a time: 2,000 rows need about 24 pages, so
    // even half of them sent on a slow machine fill 8 (the run, its target and its phase need fewer)
    const engine = createEngine({ dbPath, store: { maxPageCount: pages + 8 } });
    const scenario = createScenario({ name: 'fill-k6', phases: [{ executor: 'rate', rate: 500, durationMs: 4000, requests: [{ path: '/fib?n=5' }] }] });
    const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {}, engine: 'k6' });
    await engine.waitForRun(runId);
    const run = await engine.handlers['runs:get']({ runId });
    await engine.close();
    expect(run.status).toBe('failed');
    expect(run.targets[0]!.status).toBe('failed');
    expect(run.targets[0]!.reason).toMatch(/^disk full: the store stopped taking writes \d+\.\d s after the start \(.*SQLITE_FULL.*\); [\d,]+ request rows? (was|were) kept$/);
    expect(run.targets[0]!.phases).toHaveLength(1);
  }, 180_000);

  it('a real disk filling up mid-run (a 4 MiB tmpfs): the run ends failed, "disk full", with its kept row count and figures', async (ctx) => {
    // A real full file system, not SQLite's page limit: the WAL and the database file meet ENOSPC.
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', disk], { encoding: 'utf8' });
    if (mount.status !== 0) return skipNow(ctx, `a tmpfs cannot be mounted here (needs root and mount rights): ${mount.stderr.trim()}`);
    try {
      const dbPath = join(disk, 'runs.db');
      const engine = createEngine({ dbPath });
      // 120 s of 400 req/s is far more than 4 MiB of WAL: the disk fills within seconds, at any speed.
      const scenario = createScenario({ name: 'fill-disk', phases: [{ executor: 'rate', rate: 400, durationMs: 120_000, requests: [{ path: '/fib?n=5' }] }] });
      const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {} });
      await engine.waitForRun(runId);
      const run = await engine.handlers['runs:get']({ runId });
      const [listed] = await engine.handlers['runs:list']({ limit: 1 });
      await engine.close();
      expect(run.status).toBe('failed');
      const said = /^disk full: the store stopped taking writes \d+\.\d s after the start \(.*SQLITE_FULL.*\); ([\d,]+) request rows were kept$/.exec(run.reason ?? '');
      expect(said, run.reason ?? 'no reason').not.toBeNull();
      expect(run.targets[0]!.status).toBe('failed');
      // the summary figures of the phase cut short were written after the disk filled
      expect(run.targets[0]!.phases.length).toBe(1);
      expect(listed).toMatchObject({ id: runId, status: 'failed' });
      expect(listed!.requests).toBeGreaterThan(0);
      const db = new Database(dbPath, { readonly: true });
      const kept = db.prepare(`SELECT ${STORED_ROWS_SQL}`).pluck().get() as number;
      db.close();
      expect(kept).toBeGreaterThan(0);
      expect(Number(said![1]!.replace(/,/g, ''))).toBe(kept);
    } finally {
      spawnSync('umount', ['-l', disk]);
    }
  }, 180_000);

  it('a database that cannot be written opens read-only: history stays readable, a new run says why not', async () => {
    const dbPath = join(dir, 'runs.db');
    const store = openStore(dbPath);
    const runId = store.createRun(newRun());
    store.finishRun(runId, 'completed', null);
    store.close();
    // Root ignores permissions; the immutable attribute stops root too.
    const root = process.getuid?.() === 0;
    const lock = () => (root ? spawnSync('chattr', ['+i', dbPath]).status === 0 : (chmodSync(dbPath, 0o444), true));
    const unlock = () => (root ? spawnSync('chattr', ['-i', dbPath]) : chmodSync(dbPath, 0o644));
    expect(lock(), 'chattr +i is needed to make a file unwritable for root').toBe(true);
    try {
      const readOnly = openStore(dbPath);
      expect(readOnly.readOnly).toMatch(/SQLITE_READONLY/);
      expect(readOnly.listRuns().map((r) => r.id)).toEqual([runId]);
      expect(readOnly.getRun(runId).status).toBe('completed');
      expect(() => readOnly.createRun(newRun())).toThrow(expect.objectContaining({ code: 'LS_ERR_DB', message: expect.stringMatching(/is open read-only \(.*SQLITE_READONLY.*\): stored runs can be read/) }));
      readOnly.close();
    } finally {
      unlock();
    }
  });

  it('a damaged run can still be deleted (delete does not read it), and SQLite errors carry their code', () => {
    const dbPath = join(dir, 'runs.db');
    const store = openStore(dbPath);
    const runId = store.createRun(newRun());
    store.finishRun(runId, 'completed', null);
    store.close();
    const db = new Database(dbPath);
    db.prepare("UPDATE runs SET scenario_json = '{not json', machine_json = 'x' WHERE id = ?").run(runId);
    db.close();
    const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args, '--db', dbPath], { encoding: 'utf8', timeout: 60_000 });
    const show = cli('show', String(runId));
    expect(show.status).not.toBe(0);
    expect(show.stderr).toMatch(/\(LS_ERR_[A-Z_]+\)/);
    const deleted = cli('delete', String(runId));
    expect(deleted.stderr).toBe('');
    expect(deleted.stdout).toContain(`deleted run ${runId}`);
    expect(cli('delete', String(runId)).stderr).toContain(`no run ${runId}`);
    const sqliteError = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    expect(toApiError(sqliteError)).toEqual({ code: 'LS_ERR_DB', message: 'the database: database disk image is malformed (SQLITE_CORRUPT)' });
  });
});
