import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import type { EndpointResult } from '../contract/results.js';
import { openStore } from './store.js';
import { histograms, newRun, phaseResult, requestRow } from './test-support/factories.js';
import { databaseAt, insertOldRun } from './test-support/old-database.js';
import { expectRequestsRebuildKeepsRows } from './test-support/requests-rebuild.js';
import { useTempDir } from './test-support/temp-store.js';

// Migration 25 (issue 39): a request row may hold a 'check' error (a response that failed a check
// of its expect). The requests table is rebuilt for its CHECK, as 13 and 19 did; every stored row
// comes through unchanged, its trace number (23) included. The checks' own counts are kept with each
// endpoint (phases.endpoints_json): stored and read back as counted.

const tmp = useTempDir();

describe("migration 25: 'check' errors", () => {
  it('a version 24 database: every row kept as it was, both indexes again, check taken, a bad kind still refused', () => {
    expectRequestsRebuildKeepsRows(tmp.dbPath, { from: 24, oldRow: { error: 'protocol', status: 0 }, newRow: { error: 'check', status: 200 } });
  });

  it("a version 24 row's trace number comes through the rebuild", () => {
    const db = databaseAt(tmp.dbPath, 24);
    insertOldRun(db, 1);
    db.prepare(`INSERT INTO requests (id, target_id, phase_idx, client_idx, intended_us, done_us, status, bytes, trace_seq) VALUES (1, 1, 0, 0, 10, 20, 200, 5, 4242)`).run();
    db.close();
    openStore(tmp.dbPath).close();
    const after = new Database(tmp.dbPath, { readonly: true });
    try {
      expect(after.prepare('SELECT trace_seq FROM requests WHERE id = 1').pluck().get()).toBe(4242);
    } finally {
      after.close();
    }
  });

  it("a check row and an endpoint's check counts: stored and read back as counted; an endpoint without checks has none", () => {
    const store = openStore(tmp.dbPath);
    const runId = store.createRun(newRun());
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertRequests(targetId, packRequests([requestRow(0, { error: 'check', status: 200 }), requestRow(1)]));
    const base = phaseResult(0);
    const endpoint = (index: number, name: string, extra: Partial<EndpointResult> = {}): EndpointResult => {
      const { executor: _e, clients: _c, startedMs: _s, durationMs: _d, endpoints: _n, ...figures } = base;
      return { ...figures, name, index, ...extra };
    };
    const endpoints = [endpoint(0, 'login', { checks: [{ name: 'status 200', passes: 20, fails: 0 }, { name: 'json token is string', passes: 19, fails: 1 }] }), endpoint(1, 'item')];
    store.savePhase(targetId, phaseResult(0, { errors: { check: 1 }, endpoints }), histograms());
    store.finishRun(runId, 'completed', null);
    expect([...store.iterateRequests(runId)].map((r) => r.error)).toEqual(['check', null]);
    const [login, item] = store.getRun(runId).targets[0]!.phases[0]!.endpoints!;
    expect(login!.checks).toEqual([{ name: 'status 200', passes: 20, fails: 0 }, { name: 'json token is string', passes: 19, fails: 1 }]);
    expect('checks' in item!).toBe(false);
    store.close();
  });
});
