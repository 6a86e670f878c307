import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from './migrate.js';
import { SCHEMA_VERSION } from './migrations/index.js';
import { openStore } from './store.js';
import { packRequests } from '../contract/measurement.js';
import { phaseEndpoints } from '../contract/results.js';
import { histograms, newRun, phaseResult, requestRow, stats } from './test-support/factories.js';
import { useTempDir } from './test-support/temp-store.js';
import { databaseAt, insertOldRun } from './test-support/old-database.js';

// Migration 10 (issue 26): request rows say which template they came from, a phase keeps its
// per-endpoint figures, a threshold may name a request. A database from before reads as it did:
// every old request under template 0, no endpoints, thresholds on whole phases.

const tmp = useTempDir();

describe('migration 10: request templates', () => {
  it('keeps a version 9 database readable: old requests are template 0, old phases have no endpoints, old thresholds no request', () => {
    const db = databaseAt(tmp.dbPath, 9);
    expect(schemaVersion(db)).toBe(9);
    insertOldRun(db, 2);
    const s = JSON.stringify(stats(5));
    db.prepare(`INSERT INTO phases (target_id, idx, name, executor, clients, started_ms, duration_ms, count, ok, errors_json, throughput, total_json, wait_json, lag_json, hist_total, hist_wait)
      VALUES (1, 0, 'p', 'burst', 1, 0, 100, 2, 2, '{}', 20, ?, ?, ?, ?, ?)`).run(s, s, s, histograms().total, histograms().wait);
    db.prepare(`INSERT INTO thresholds (target_id, idx, phase_idx, phase, check_text, metric, op, limit_value, measured, passed) VALUES (1, 0, 0, 'p', 'count == 2', 'count', '==', 2, 2, 1)`).run();
    const insert = db.prepare(`INSERT INTO requests (target_id, phase_idx, client_idx, intended_us, done_us, status, bytes) VALUES (1, 0, 0, ?, ?, 200, 10)`);
    insert.run(0, 1000);
    insert.run(100, 1100);
    db.close();

    const store = openStore(tmp.dbPath);
    const run = store.getRun(1);
    expect(run.targets[0]!.phases[0]!.endpoints).toBeUndefined();
    expect(phaseEndpoints(run.targets[0]!.phases[0]!)).toEqual([]);
    expect(run.thresholds).toEqual([expect.objectContaining({ check: 'count == 2', request: null, passed: true })]);
    expect([...store.iterateRequests(1)].map((r) => [r.doneUs, r.templateIdx])).toEqual([[1000, 0], [1100, 0]]);
    store.close();
    const again = new Database(tmp.dbPath);
    expect(schemaVersion(again)).toBe(SCHEMA_VERSION);
    again.close();
  });

  it('stores and reads back each request\'s template, a phase\'s endpoints and a threshold\'s request', () => {
    const store = openStore(tmp.dbPath);
    const runId = store.createRun(newRun());
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    const endpoints = [
      { name: 'login', index: 0, ...pick(phaseResult(0, { count: 30, ok: 30, errors: {} })) },
      { name: 'GET /items/1', index: 1, ...pick(phaseResult(0, { count: 70, ok: 68, errors: { timeout: 2 } })) },
    ];
    store.savePhase(targetId, phaseResult(0, { endpoints }), histograms());
    store.saveThresholds(targetId, [{ targetId, cellIndex: 0, server: 'single', phaseIndex: 0, phase: 'phase 0', request: 'login', check: 'count == 30', metric: 'count', op: '==', limit: 30, measured: 30, passed: true }]);
    store.insertRequests(targetId, packRequests([requestRow(0, { templateIdx: 1 }), requestRow(1, { templateIdx: 0 }), requestRow(2, { templateIdx: 1 })]));
    const run = store.getRun(runId);
    expect(run.targets[0]!.phases[0]!.endpoints).toEqual(endpoints);
    expect(run.thresholds[0]!.request).toBe('login');
    expect([...store.iterateRequests(runId)].map((r) => r.templateIdx)).toEqual([1, 0, 1]);
    store.close();
  });
});

/** A phase result's figures, as an endpoint has them. */
function pick(p: ReturnType<typeof phaseResult>) {
  const { count, ok, errors, throughput, total, wait, processing, serverWait, lag } = p;
  return { count, ok, errors, throughput, total, wait, processing, serverWait, lag };
}
