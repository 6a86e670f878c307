import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { rootPath } from '../paths.js';
import { openStore, type Store } from '../../db/store.js';
import { histograms, newRun, phaseResult, requestBatch } from '../../db/test-support/factories.js';
import { useTempDir } from '../../db/test-support/temp-store.js';

// A damaged page in a real SQLite file: a few runs are stored, one page of a table is overwritten
// with garbage from its header on (found with SQLite's dbstat table), and the file is reopened.
// Which runs the page held is not assumed: plain SQLite, read run by run, says which fail.

const tmp = useTempDir();

const RUNS = 8;

/** Stores RUNS runs, each big enough (scenario text) that the runs table spans several pages. */
function storeRuns(dbPath: string): number[] {
  const store = openStore(dbPath);
  const ids: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const runId = store.createRun(newRun({ scenarioName: `run-${i}`, scenario: { servers: [{ architecture: 'single' }], phases: [], note: `${i}`.repeat(1500) } }));
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertWindows(Array.from({ length: 40 }, (_, k) => ({ targetId, tMs: (k + 1) * 250, phaseIndex: 0, count: 10 + i, throughput: 40, errors: {}, inFlight: 1, total: null, wait: null, processing: null })));
    store.insertSamples([{ targetId, tMs: 250, cpuPercent: 10, rssBytes: 1e6, processes: 1, busy: null, queue: null }]);
    store.insertRequests(targetId, requestBatch(0, 50 + i));
    store.savePhase(targetId, phaseResult(0, { count: 100 + i }), histograms());
    store.finishRun(runId, 'completed', null);
    ids.push(runId);
  }
  store.close(); // checkpoints the WAL: every page is in the file
  return ids;
}

/** Overwrites leaf page `leaf` (0-based, in page order) of `table` with garbage, header included. */
function damagePage(dbPath: string, table: string, leaf: number): void {
  const db = new Database(dbPath);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const leaves = db.prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno").pluck().all(table) as number[];
  db.close();
  expect(leaves.length, `${table} spans ${leaves.length} leaf pages`).toBeGreaterThan(leaf + 1);
  const fd = openSync(dbPath, 'r+');
  writeSync(fd, Buffer.alloc(pageSize / 2, 0xa5), 0, pageSize / 2, (leaves[leaf]! - 1) * pageSize);
  closeSync(fd);
}

/** Runs that plain SQLite cannot read with `sql` (one run id parameter): the oracle of what the page held. */
function unreadable(dbPath: string, ids: readonly number[], sql: string): number[] {
  const db = new Database(dbPath, { readonly: true });
  const bad = ids.filter((id) => {
    try {
      return db.prepare(sql).all(id).length === 0;
    } catch {
      return true;
    }
  });
  db.close();
  return bad;
}

function snapshot(store: Store, id: number) {
  return { run: store.getRun(id), windows: store.getWindows(id), requests: [...store.iterateRequests(id)].length };
}

describe('a damaged page in the store', () => {
  it('of the runs table: list shows every readable run as before and marks the damaged ones; show says damaged', async () => {
    const ids = storeRuns(tmp.dbPath);
    const before = openStore(tmp.dbPath);
    const listedBefore = before.listRuns();
    before.close();
    damagePage(tmp.dbPath, 'runs', 1);
    const bad = unreadable(tmp.dbPath, ids, 'SELECT * FROM runs WHERE id = ?');
    expect(bad.length, 'the page held no run').toBeGreaterThan(0);
    expect(bad.length).toBeLessThan(RUNS);

    const engine = createEngine({ dbPath: tmp.dbPath });
    const listed = await engine.handlers['runs:list']({ limit: 50 });
    expect(listed.map((r) => r.id)).toEqual([...ids].reverse());
    for (const item of listed) {
      if (bad.includes(item.id)) expect(item.damaged).toMatch(new RegExp(`^run ${item.id} cannot be read \\(.*(SQLITE_CORRUPT|missing).*\\)`));
      else expect(item).toEqual(listedBefore.find((r) => r.id === item.id));
    }
    // filters still apply to what can be read: the status from the index, the id as text
    expect((await engine.handlers['runs:list']({ status: 'failed', limit: 50 })).map((r) => r.id)).toEqual([]);
    expect((await engine.handlers['runs:list']({ text: 'run-', limit: 50 })).map((r) => r.id)).toEqual(ids.filter((id) => !bad.includes(id)).reverse());
    expect((await engine.handlers['runs:list']({ limit: 2 })).map((r) => r.id)).toEqual([...ids].reverse().slice(0, 2));
    await expect(engine.handlers['runs:get']({ runId: bad[0]! })).rejects.toMatchObject({ code: 'LS_ERR_DB' });
    await engine.close();

    const cli = (...args: string[]) => spawnSync(process.execPath, [rootPath('bin/loadscope.js'), ...args, '--db', tmp.dbPath], { encoding: 'utf8', timeout: 60_000 });
    const list = cli('list');
    expect(list.status).toBe(0);
    for (const id of bad) expect(list.stdout).toMatch(new RegExp(`^damaged: run ${id} cannot be read`, 'm'));
    expect(list.stdout.match(/^\d+ /gm)).toHaveLength(RUNS);
    const show = cli('show', String(bad[0]));
    expect(show.status).not.toBe(0);
    expect(show.stderr).toMatch(/\(LS_ERR_DB\)\n$/);
  });

  it('of the windows table: a damaged run can be deleted, and no other run loses anything', () => {
    const ids = storeRuns(tmp.dbPath);
    const store0 = openStore(tmp.dbPath);
    const before = new Map(ids.map((id) => [id, snapshot(store0, id)]));
    store0.close();
    damagePage(tmp.dbPath, 'windows', 0);
    const bad = unreadable(tmp.dbPath, ids, 'SELECT w.* FROM windows w NOT INDEXED JOIN targets t ON t.id = w.target_id WHERE t.run_id = ?');
    expect(bad.length, 'the page held no window').toBeGreaterThan(0);
    const victim = bad[0]!;

    const store = openStore(tmp.dbPath);
    expect(store.deleteRun(victim)).toBe(true);
    expect(() => store.getRun(victim)).toThrow(expect.objectContaining({ code: 'LS_ERR_RUN_NOT_FOUND' }));
    expect(store.listRuns().map((r) => r.id)).toEqual(ids.filter((id) => id !== victim).reverse());
    expect(store.deleteRun(victim)).toBe(false);
    // every run the damage did not reach reads exactly as before
    for (const id of ids) {
      if (id === victim) continue;
      if (bad.includes(id)) expect(store.getRun(id)).toEqual(before.get(id)!.run);
      else expect(snapshot(store, id)).toEqual(before.get(id));
    }
    // foreign keys are enforced again after the damaged delete
    expect(() => store.createTarget({ runId: victim, cellIndex: 0, serverIndex: 0, label: 'x', architecture: 'single' })).toThrow(/FOREIGN KEY/);
    store.close();
  });
});
