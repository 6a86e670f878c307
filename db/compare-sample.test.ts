import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadscopeError } from '../contract/errors.js';
import { COMPARE_SAMPLE_ROWS } from './compare-sample.js';
import { openStore } from './store.js';
import { newRun, requestBatch } from './test-support/factories.js';
import { rawSql, useTempStore } from './test-support/temp-store.js';

// The compare sample (issue 29): drawn once at a run's end, read by compare instead of the raw rows.

const temp = useTempStore();

/** A finished run of `rows` request rows (intended 0.1 ms apart) under a raw cap. */
function storedRun(rows: number, rawCap: number): { runId: number; targetId: number } {
  const runId = temp.store.createRun(newRun({ rawCap }));
  temp.store.addCells(runId, [{ index: 0, label: 'cell', params: {} }]);
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  for (let from = 0; from < rows; from += 5000) temp.store.insertRequests(targetId, requestBatch(from, Math.min(5000, rows - from)));
  temp.store.finishRun(runId, 'completed', null);
  return { runId, targetId };
}

describe('compare sample', () => {
  it('a small server run keeps every stored row, the same points getRequests reads', () => {
    const { runId, targetId } = storedRun(1500, 1_000_000);
    expect(temp.store.getCompareRows(targetId)).toEqual(temp.store.getRequests(runId, targetId, COMPARE_SAMPLE_ROWS).points);
  });

  it("a big server run whose writer dropped rows (gaps in ids): the rows getRequests' even sampling keeps, evenly over the run's time", () => {
    const { runId, targetId } = storedRun(60_000, 20_000);
    const stored = temp.store.storedRows(targetId);
    expect(stored).toBeGreaterThan(COMPARE_SAMPLE_ROWS);
    const sample = temp.store.getCompareRows(targetId);
    expect(sample.length).toBeGreaterThan(COMPARE_SAMPLE_ROWS * 0.9);
    expect(sample.length).toBeLessThanOrEqual(COMPARE_SAMPLE_ROWS);
    expect(sample).toEqual(temp.store.getRequests(runId, targetId, COMPARE_SAMPLE_ROWS).points);
    // evenly over time: each tenth of the run holds about a tenth of the sample
    const span = 60_000 * 0.1;
    const tenths = Array.from({ length: 10 }, (_, k) => sample.filter((p) => Math.min(9, Math.floor(p.intendedMs / (span / 10))) === k).length);
    for (const n of tenths) expect(Math.abs(n - sample.length / 10)).toBeLessThan(sample.length * 0.02);
  });

  it('compare reads the kept sample, not the raw rows: with every raw row gone it is unchanged', () => {
    const { targetId } = storedRun(20_000, 1_000_000);
    const before = temp.store.getCompareRows(targetId);
    rawSql(temp.dbPath, 'DELETE FROM requests WHERE target_id = ?', targetId);
    rawSql(temp.dbPath, 'DELETE FROM request_packs WHERE target_id = ?', targetId);
    expect(temp.store.storedRows(targetId)).toBe(0);
    expect(temp.store.getCompareRows(targetId)).toEqual(before);
  });

  it('a run stored before migration 015 (no sample kept) draws the same sample from its raw rows', () => {
    const { targetId } = storedRun(20_000, 1_000_000);
    const kept = temp.store.getCompareRows(targetId);
    rawSql(temp.dbPath, 'DELETE FROM compare_samples WHERE target_id = ?', targetId);
    expect(temp.store.getCompareRows(targetId)).toEqual(kept);
  });

  it('a damaged sample is a one-line LS_ERR_DB naming the server run, not a crash', () => {
    const { targetId } = storedRun(100, 1_000_000);
    rawSql(temp.dbPath, 'UPDATE compare_samples SET rows = ? WHERE target_id = ?', Buffer.alloc(13), targetId);
    let err: unknown;
    try {
      temp.store.getCompareRows(targetId);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LoadscopeError);
    expect((err as LoadscopeError).code).toBe('LS_ERR_DB');
    expect((err as LoadscopeError).message).toMatch(new RegExp(`target ${targetId} compare sample`));
    expect((err as LoadscopeError).message).not.toContain('\n');
  });

  it('deleting the run deletes its sample', () => {
    const { runId, targetId } = storedRun(100, 1_000_000);
    temp.store.deleteRun(runId);
    const db = new Database(temp.dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM compare_samples WHERE target_id = ?').pluck().get(targetId)).toBe(0);
    db.close();
  });

  it("a disk too full for the sample still takes the run's end; compare then draws the sample from the raw rows", () => {
    const path = join(temp.dir, 'full.db');
    const first = openStore(path);
    const runId = first.createRun(newRun());
    first.addCells(runId, [{ index: 0, label: 'cell', params: {} }]);
    const targetId = first.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    first.insertRequests(targetId, requestBatch(0, 3000));
    first.close();
    const db = new Database(path);
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.close();
    // a few pages of room: the run's end fits, 3,000 packed rows (~70 pages) do not
    const full = openStore(path, { maxPageCount: pages + 4 });
    try {
      full.finishRun(runId, 'completed', null);
      expect(full.getRun(runId).status).toBe('completed');
      const raw = new Database(path, { readonly: true });
      expect(raw.prepare('SELECT count(*) FROM compare_samples').pluck().get()).toBe(0);
      raw.close();
      expect(full.getCompareRows(targetId)).toEqual(full.getRequests(runId, targetId, COMPARE_SAMPLE_ROWS).points);
    } finally {
      full.close();
    }
  });
});
