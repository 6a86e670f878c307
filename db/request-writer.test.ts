import { describe, expect, it } from 'vitest';
import { LoadscopeError } from '../contract/errors.js';
import { REQUEST_STRIDE } from '../contract/measurement.js';
import { newRun, requestBatch } from './test-support/factories.js';
import { storedRowCount } from './test-support/stored-rows.js';
import { useTempStore } from './test-support/temp-store.js';

const temp = useTempStore();

function target(runId: number, label = 'single'): number {
  return temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label, architecture: label, status: 'running' });
}

function storedCount(): number {
  return storedRowCount(temp.dbPath);
}

describe('insertRequests', () => {
  it('stores every row below the cap, in batch order, using only rowCount rows of the buffer', () => {
    const runId = temp.store.createRun(newRun());
    const t = target(runId);
    const buffer = requestBatch(0, 100);
    temp.store.insertRequests(t, buffer, 70);
    temp.store.insertRequests(t, requestBatch(70, 30));
    const rows = [...temp.store.iterateRequests(runId)];
    expect(rows.map((r) => r.intendedUs)).toEqual(Array.from({ length: 100 }, (_, i) => i * 100));
    expect(temp.store.getRun(runId).targets[0]).toMatchObject({ rawRows: 100, rawSampled: false });
  });

  it('rolls back a batch that fails mid-way: nothing of it is stored or counted', () => {
    const runId = temp.store.createRun(newRun());
    const t = target(runId);
    temp.store.insertRequests(t, requestBatch(0, 10));
    const bad = requestBatch(10, 500);
    bad[300 * REQUEST_STRIDE + 5] = NaN; // row 300's doneUs: after 4 full chunks of 64 were written
    expect(() => temp.store.insertRequests(t, bad)).toThrow(LoadscopeError);
    expect(storedCount()).toBe(10);
    expect(temp.store.getRun(runId).targets[0].rawRows).toBe(10);
    const badError = requestBatch(10, 5);
    badError[4 * REQUEST_STRIDE + 8] = 17;
    expect(() => temp.store.insertRequests(t, badError)).toThrow(/error code 17/);
    temp.store.insertRequests(t, requestBatch(10, 5)); // the writer is still consistent afterwards
    expect([...temp.store.iterateRequests(runId)].map((r) => r.intendedUs / 100)).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });

  it('rolls back a batch that fails while sampling above the cap', () => {
    const runId = temp.store.createRun(newRun({ rawCap: 50 }));
    const t = target(runId);
    temp.store.insertRequests(t, requestBatch(0, 40));
    const before = [...temp.store.iterateRequests(runId)];
    const bad = requestBatch(40, 1000);
    bad[999 * REQUEST_STRIDE + 2] = Infinity;
    expect(() => temp.store.insertRequests(t, bad)).toThrow(/intendedUs/);
    expect([...temp.store.iterateRequests(runId)]).toEqual(before);
    expect(temp.store.getRun(runId).targets[0]).toMatchObject({ rawRows: 40, rawSampled: false });
  });

  it('keeps at most the run cap, a uniform sample over the whole run and every target, and records it', () => {
    const cap = 2000;
    const runId = temp.store.createRun(newRun({ rawCap: cap }));
    const a = target(runId, 'single');
    const b = target(runId, 'cluster');
    const other = temp.store.createRun(newRun());
    const c = target(other);
    temp.store.insertRequests(c, requestBatch(0, 10));
    // 20,000 rows: 10,000 for each target, in batches of 1,000 (row number i -> intendedUs i * 100)
    for (let from = 0; from < 10_000; from += 1000) {
      temp.store.insertRequests(a, requestBatch(from, 1000));
      expect(storedCount()).toBeLessThanOrEqual(cap + 10); // never above the cap after a batch
    }
    for (let from = 10_000; from < 20_000; from += 1000) temp.store.insertRequests(b, requestBatch(from, 1000));

    const rows = [...temp.store.iterateRequests(runId)];
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

    const targets = temp.store.getRun(runId).targets;
    expect(targets.map((t) => [t.rawRows, t.rawSampled])).toEqual([[10_000, true], [10_000, true]]);
    expect(temp.store.getRun(other).targets[0]).toMatchObject({ rawRows: 10, rawSampled: false });

    // a new store instance picks the sampling state up from the file and keeps the same level rule
    const keptBefore = new Set(numbers);
    temp.reopen();
    temp.store.insertRequests(b, requestBatch(20_000, 20_000));
    const after = [...temp.store.iterateRequests(runId)];
    expect(after.length).toBeLessThanOrEqual(cap);
    expect(after.length).toBeGreaterThan(cap / 2 - 200);
    const early = after.map((r) => r.intendedUs / 100).filter((n) => n < 20_000);
    for (const n of early) expect(keptBefore.has(n)).toBe(true); // raising the level only drops rows
    expect(Math.abs(early.length - after.length / 2)).toBeLessThan(after.length / 8); // first half of the run: half the sample
    expect(temp.store.getRun(runId).targets[1].rawRows).toBe(30_000);
  });

  it('stores nothing with a cap of 0 but still counts the rows', () => {
    const runId = temp.store.createRun(newRun({ rawCap: 0 }));
    const t = target(runId);
    temp.store.insertRequests(t, requestBatch(0, 100));
    expect(storedCount()).toBe(0);
    expect(temp.store.getRun(runId).targets[0]).toMatchObject({ rawRows: 100, rawSampled: true });
    expect(temp.store.getRequests(runId, t, 10)).toEqual({ points: [], total: 100, sampled: true });
  });
});

describe('getRequests', () => {
  it('samples evenly when the stored rows are more than the limit', () => {
    const runId = temp.store.createRun(newRun());
    const t = target(runId);
    temp.store.insertRequests(t, requestBatch(0, 1000));
    const page = temp.store.getRequests(runId, t, 100);
    expect(page.total).toBe(1000);
    expect(page.sampled).toBe(true);
    expect(page.points.map((p) => p.intendedMs * 10)).toEqual(Array.from({ length: 100 }, (_, i) => i * 10));

    const odd = temp.store.getRequests(runId, t, 300); // 1000 / 300: gaps of 3 or 4, never 2 in a row
    expect(odd.points).toHaveLength(300);
    const idx = odd.points.map((p) => Math.round(p.intendedMs * 10));
    const gaps = idx.slice(1).map((v, i) => v - idx[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4);

    expect(temp.store.getRequests(runId, t, 1000)).toMatchObject({ total: 1000, sampled: false });
    expect(temp.store.getRequests(runId, t, 5000).points).toHaveLength(1000);
  });

  it('says sampled when the cap sampled the rows even if the limit did not', () => {
    const runId = temp.store.createRun(newRun({ rawCap: 100 }));
    const t = target(runId);
    temp.store.insertRequests(t, requestBatch(0, 400));
    const page = temp.store.getRequests(runId, t, 1000);
    expect(page).toMatchObject({ total: 400, sampled: true });
    expect(page.points.length).toBeLessThanOrEqual(100);
    expect(page.points.length).toBeGreaterThan(30);
  });

  it('pages iterateRequests across page boundaries and targets', () => {
    const runId = temp.store.createRun(newRun());
    const a = target(runId);
    const b = target(runId, 'cluster');
    temp.store.insertRequests(b, requestBatch(0, 3));
    temp.store.insertRequests(a, requestBatch(3, 12_001));
    const it = temp.store.iterateRequests(runId);
    let n = 0;
    let last = -1;
    let lastTarget = a;
    for (const row of it) {
      if (row.targetId !== lastTarget) last = -1;
      lastTarget = row.targetId;
      expect(row.intendedUs).toBeGreaterThan(last);
      last = row.intendedUs;
      n++;
      if (n === 6000) temp.store.insertWindows([]); // the connection is free between pages
    }
    expect(n).toBe(12_004);
    expect(lastTarget).toBe(b);
  });
});
