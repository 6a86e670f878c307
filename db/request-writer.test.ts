import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadscopeError } from '../contract/errors.js';
import { REQUEST_STRIDE } from '../contract/measurement.js';
import { openStore, type Store } from './store.js';
import { newRun, requestBatch, tempDir } from './test-support/factories.js';

let tmp: ReturnType<typeof tempDir>;
let store: Store;
beforeEach(() => {
  tmp = tempDir();
  store = openStore(tmp.dbPath);
});
afterEach(() => {
  store.close();
  tmp.remove();
});

function target(runId: number, label = 'single'): number {
  return store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label, architecture: label, status: 'running' });
}

function storedCount(): number {
  const db = new Database(tmp.dbPath, { readonly: true });
  try {
    return Number(db.prepare('SELECT count(*) FROM requests').pluck().get());
  } finally {
    db.close();
  }
}

describe('insertRequests', () => {
  it('stores every row below the cap, in batch order, using only rowCount rows of the buffer', () => {
    const runId = store.createRun(newRun());
    const t = target(runId);
    const buffer = requestBatch(0, 100);
    store.insertRequests(t, buffer, 70);
    store.insertRequests(t, requestBatch(70, 30));
    const rows = [...store.iterateRequests(runId)];
    expect(rows.map((r) => r.intendedUs)).toEqual(Array.from({ length: 100 }, (_, i) => i * 100));
    expect(store.getRun(runId).targets[0]).toMatchObject({ rawRows: 100, rawSampled: false });
  });

  it('rolls back a batch that fails mid-way: nothing of it is stored or counted', () => {
    const runId = store.createRun(newRun());
    const t = target(runId);
    store.insertRequests(t, requestBatch(0, 10));
    const bad = requestBatch(10, 500);
    bad[300 * REQUEST_STRIDE + 5] = NaN; // row 300's doneUs: after 4 full chunks of 64 were written
    expect(() => store.insertRequests(t, bad)).toThrow(LoadscopeError);
    expect(storedCount()).toBe(10);
    expect(store.getRun(runId).targets[0].rawRows).toBe(10);
    const badError = requestBatch(10, 5);
    badError[4 * REQUEST_STRIDE + 8] = 17;
    expect(() => store.insertRequests(t, badError)).toThrow(/error code 17/);
    store.insertRequests(t, requestBatch(10, 5)); // the writer is still consistent afterwards
    expect([...store.iterateRequests(runId)].map((r) => r.intendedUs / 100)).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });

  it('rolls back a batch that fails while sampling above the cap', () => {
    const runId = store.createRun(newRun({ rawCap: 50 }));
    const t = target(runId);
    store.insertRequests(t, requestBatch(0, 40));
    const before = [...store.iterateRequests(runId)];
    const bad = requestBatch(40, 1000);
    bad[999 * REQUEST_STRIDE + 2] = Infinity;
    expect(() => store.insertRequests(t, bad)).toThrow(/intendedUs/);
    expect([...store.iterateRequests(runId)]).toEqual(before);
    expect(store.getRun(runId).targets[0]).toMatchObject({ rawRows: 40, rawSampled: false });
  });

  it('keeps at most the run cap, a uniform sample over the whole run and every target, and records it', () => {
    const cap = 2000;
    const runId = store.createRun(newRun({ rawCap: cap }));
    const a = target(runId, 'single');
    const b = target(runId, 'cluster');
    const other = store.createRun(newRun());
    const c = target(other);
    store.insertRequests(c, requestBatch(0, 10));
    // 20,000 rows: 10,000 for each target, in batches of 1,000 (row number i -> intendedUs i * 100)
    for (let from = 0; from < 10_000; from += 1000) {
      store.insertRequests(a, requestBatch(from, 1000));
      expect(storedCount()).toBeLessThanOrEqual(cap + 10); // never above the cap after a batch
    }
    for (let from = 10_000; from < 20_000; from += 1000) store.insertRequests(b, requestBatch(from, 1000));

    const rows = [...store.iterateRequests(runId)];
    // level 3 (1 in 8) or 4 (1 in 16) of 20,000 rows: between about cap/2 and cap
    expect(rows.length).toBeLessThanOrEqual(cap);
    expect(rows.length).toBeGreaterThan(cap / 2 - 200);
    expect(storedCount()).toBe(rows.length + 10); // the other run keeps its own rows
    const numbers = rows.map((r) => r.intendedUs / 100);
    expect(new Set(numbers).size).toBe(rows.length); // no row stored twice
    // Representative: each tenth of the run holds about a tenth of the sample, early rows included.
    const tenths = Array.from({ length: 10 }, (_, k) => numbers.filter((n) => Math.floor(n / 2000) === k).length);
    for (const n of tenths) expect(Math.abs(n - rows.length / 10)).toBeLessThan(rows.length / 25);
    // and it does not alias with round-robin patterns such as client = row % 4
    const clients = [0, 1, 2, 3].map((k) => rows.filter((r) => r.clientIdx === k).length);
    for (const n of clients) expect(Math.abs(n - rows.length / 4)).toBeLessThan(rows.length / 12);

    const targets = store.getRun(runId).targets;
    expect(targets.map((t) => [t.rawRows, t.rawSampled])).toEqual([[10_000, true], [10_000, true]]);
    expect(store.getRun(other).targets[0]).toMatchObject({ rawRows: 10, rawSampled: false });

    // a new store instance picks the sampling state up from the file and keeps the same level rule
    const keptBefore = new Set(numbers);
    store.close();
    store = openStore(tmp.dbPath);
    store.insertRequests(b, requestBatch(20_000, 20_000));
    const after = [...store.iterateRequests(runId)];
    expect(after.length).toBeLessThanOrEqual(cap);
    expect(after.length).toBeGreaterThan(cap / 2 - 200);
    const early = after.map((r) => r.intendedUs / 100).filter((n) => n < 20_000);
    for (const n of early) expect(keptBefore.has(n)).toBe(true); // raising the level only drops rows
    expect(Math.abs(early.length - after.length / 2)).toBeLessThan(after.length / 8); // first half of the run: half the sample
    expect(store.getRun(runId).targets[1].rawRows).toBe(30_000);
  });

  it('stores nothing with a cap of 0 but still counts the rows', () => {
    const runId = store.createRun(newRun({ rawCap: 0 }));
    const t = target(runId);
    store.insertRequests(t, requestBatch(0, 100));
    expect(storedCount()).toBe(0);
    expect(store.getRun(runId).targets[0]).toMatchObject({ rawRows: 100, rawSampled: true });
    expect(store.getRequests(runId, t, 10)).toEqual({ points: [], total: 100, sampled: true });
  });
});

describe('getRequests', () => {
  it('samples evenly when the stored rows are more than the limit', () => {
    const runId = store.createRun(newRun());
    const t = target(runId);
    store.insertRequests(t, requestBatch(0, 1000));
    const page = store.getRequests(runId, t, 100);
    expect(page.total).toBe(1000);
    expect(page.sampled).toBe(true);
    expect(page.points.map((p) => p.intendedMs * 10)).toEqual(Array.from({ length: 100 }, (_, i) => i * 10));

    const odd = store.getRequests(runId, t, 300); // 1000 / 300: gaps of 3 or 4, never 2 in a row
    expect(odd.points).toHaveLength(300);
    const idx = odd.points.map((p) => Math.round(p.intendedMs * 10));
    const gaps = idx.slice(1).map((v, i) => v - idx[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4);

    expect(store.getRequests(runId, t, 1000)).toMatchObject({ total: 1000, sampled: false });
    expect(store.getRequests(runId, t, 5000).points).toHaveLength(1000);
  });

  it('says sampled when the cap sampled the rows even if the limit did not', () => {
    const runId = store.createRun(newRun({ rawCap: 100 }));
    const t = target(runId);
    store.insertRequests(t, requestBatch(0, 400));
    const page = store.getRequests(runId, t, 1000);
    expect(page).toMatchObject({ total: 400, sampled: true });
    expect(page.points.length).toBeLessThanOrEqual(100);
    expect(page.points.length).toBeGreaterThan(30);
  });

  it('pages iterateRequests across page boundaries and targets', () => {
    const runId = store.createRun(newRun());
    const a = target(runId);
    const b = target(runId, 'cluster');
    store.insertRequests(b, requestBatch(0, 3));
    store.insertRequests(a, requestBatch(3, 12_001));
    const it = store.iterateRequests(runId);
    let n = 0;
    let last = -1;
    let lastTarget = a;
    for (const row of it) {
      if (row.targetId !== lastTarget) last = -1;
      lastTarget = row.targetId;
      expect(row.intendedUs).toBeGreaterThan(last);
      last = row.intendedUs;
      n++;
      if (n === 6000) store.insertWindows([]); // the connection is free between pages
    }
    expect(n).toBe(12_004);
    expect(lastTarget).toBe(b);
  });
});
