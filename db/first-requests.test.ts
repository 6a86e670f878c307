import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import { histograms, newRun, phaseResult, requestRow } from './test-support/factories.js';
import { useTempStore } from './test-support/temp-store.js';

// A run's users' first requests read back for the late-admission rule (db/first-requests.ts,
// migration 021): per phase the rows intended at its first intended time, with their total and
// processing, and how many were stored; read by seeks on the requests_phase_intended index, so a
// server run's million rows are never scanned to find them.

const temp = useTempStore();

function storedRun(): { runId: number; targetId: number } {
  const runId = temp.store.createRun(newRun());
  const targetId = temp.store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
  temp.store.savePhase(targetId, phaseResult(0), histograms());
  temp.store.savePhase(targetId, phaseResult(1), histograms());
  return { runId, targetId };
}

describe("users' first requests in the store", () => {
  it("a closed phase's users all start at its first intended time: those rows come back per phase with total and processing", () => {
    const { runId, targetId } = storedRun();
    const first = [400_000, 1_000, 2_000].map((total, i) => requestRow(i, { phaseIdx: 0, intendedUs: 10_000, doneUs: 10_000 + total, serverProcUs: i === 0 ? 500 : 900 }));
    const later = Array.from({ length: 50 }, (_, i) => requestRow(100 + i, { phaseIdx: 0, intendedUs: 20_000 + i * 1000, doneUs: 21_000 + i * 1000 }));
    const second = [3_000, 4_000].map((total, i) => requestRow(200 + i, { phaseIdx: 1, intendedUs: 5_000_000, doneUs: 5_000_000 + total, serverProcUs: NaN }));
    temp.store.insertRequests(targetId, packRequests([...later, ...first, ...second]));
    temp.store.finishRun(runId, 'completed', null);

    const read = temp.store.getFirstRequests(runId);
    expect(read.map((p) => [p.phaseIndex, p.stored])).toEqual([[0, 3], [1, 2]]);
    expect(read[0]!.requests.map((r) => [r.totalMs, r.processingMs]).sort((a, b) => a[0]! - b[0]!)).toEqual([[1, 0.9], [2, 0.9], [400, 0.5]]);
    expect(read[1]!.requests.map((r) => r.processingMs)).toEqual([null, null]);
  });

  it('a phase without raw rows (none kept, or a k6 import): no first requests, and the read does not fail', () => {
    const { runId } = storedRun();
    temp.store.finishRun(runId, 'completed', null);
    expect(temp.store.getFirstRequests(runId)).toEqual([]);
  });

  it("the queries seek the index on (target, phase, intended): a million-row server run is not scanned", () => {
    storedRun();
    const db = new Database(temp.dbPath, { readonly: true });
    try {
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1, 0, 0) as { detail: string }[]).map((r) => r.detail).join('; ');
      // the reader's two shapes: the phase's first intended time, then the rows at that time
      expect(plan('SELECT min(intended_us) FROM requests WHERE target_id = ? AND phase_idx = ? AND ? IS NOT NULL')).toContain('USING COVERING INDEX requests_phase_intended');
      expect(plan('SELECT done_us FROM requests WHERE target_id = ? AND phase_idx = ? AND intended_us = ?')).toContain('USING INDEX requests_phase_intended (target_id=? AND phase_idx=? AND intended_us=?)');
    } finally {
      db.close();
    }
  });
});
