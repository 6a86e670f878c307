import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LoadscopeError } from '../contract/errors.js';
import { RunSummary } from '../contract/results.js';
import { INTERRUPTED_REASON } from './recover.js';
import { openStore, type Store } from './store.js';
import { decodedMax, histograms, newRun, phaseResult, requestBatch, requestRow, stats } from './test-support/factories.js';
import { packRequests } from '../contract/measurement.js';
import { rawSql, useTempStore } from './test-support/temp-store.js';
import { STORED_ROWS_SQL } from './test-support/stored-rows.js';

const temp = useTempStore();

function seedRun(s: Store, overrides: Parameters<typeof newRun>[0] = {}): { runId: number; targetIds: number[] } {
  const runId = s.createRun(newRun(overrides));
  s.addCells(runId, [
    { index: 0, label: 'cores=1', params: { cores: 1 } },
    { index: 1, label: 'cores=2', params: { cores: 2 } },
  ]);
  const targetIds = [0, 1].map((cell) =>
    s.createTarget({ runId, cellIndex: cell, serverIndex: 0, label: cell === 0 ? 'single' : 'cluster', architecture: cell === 0 ? 'single' : 'cluster', status: 'running', startedAt: new Date().toISOString() }),
  );
  return { runId, targetIds };
}

function expectCode(fn: () => unknown, code: string, message?: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LoadscopeError);
    if (err instanceof LoadscopeError) {
      expect(err.code).toBe(code);
      if (message) expect(err.message).toMatch(message);
    }
    return;
  }
  expect.fail(`expected ${code}`);
}

describe('store round trip', () => {
  it('gives back a run with cells, targets, phases, histograms, windows, samples and requests', () => {
    const { runId, targetIds } = seedRun(temp.store);
    const [a, b] = targetIds;
    const hists = histograms();
    temp.store.savePhase(a, phaseResult(0), hists);
    temp.store.savePhase(a, phaseResult(1, { processing: null, serverWait: null, errors: {} }), { ...hists, processing: null });
    temp.store.savePhase(b, phaseResult(0, { count: 50, ok: 50, errors: {}, total: stats(20, 50) }), hists);
    temp.store.insertWindows([
      { targetId: a, tMs: 250, phaseIndex: 0, count: 25, throughput: 100, errors: {}, inFlight: 3, queued: 7, total: { mean: 1, p50: 1, p90: 2, p99: 3, max: 4 }, wait: null, processing: null },
      { targetId: a, tMs: 500, phaseIndex: null, count: 0, throughput: 0, errors: { refused: 1 }, inFlight: 0, total: null, wait: null, processing: null },
    ]);
    temp.store.insertSamples([{ targetId: a, tMs: 250, cpuPercent: 95.5, rssBytes: 50e6, processes: 3, busy: 2, queue: null }]);
    temp.store.insertRequests(a, packRequests([requestRow(0), requestRow(1, { error: 'timeout', status: 0, firstByteUs: null, serverProcUs: null, serverWaitUs: null })]));
    temp.store.updateTarget(a, { status: 'completed', durationMs: 2000, peakCpu: 99, peakRssBytes: 60e6, peakProcesses: 4 });
    temp.store.updateTarget(b, { status: 'failed', reason: 'server crashed' });
    temp.store.finishRun(runId, 'completed', null, [{ title: 'Throughput', unit: 'req/s', header: ['server', 'rps'], rows: [['single', 100], ['cluster', null]] }]);

    const run = temp.store.getRun(runId);
    expect(RunSummary.parse(run)).toEqual(run);
    expect(run).toMatchObject({ id: runId, scenarioName: 'seed-004', status: 'completed', reason: null, quick: false, machine: { cpus: 2 } });
    expect(run.endedAt).not.toBeNull();
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    expect(run.scenario).toEqual(newRun().scenario);
    expect(run.cells).toEqual([
      { index: 0, label: 'cores=1', params: { cores: 1 } },
      { index: 1, label: 'cores=2', params: { cores: 2 } },
    ]);
    expect(run.report[0].rows[1]).toEqual(['cluster', null]);
    const [ta, tb] = run.targets;
    expect(ta).toMatchObject({ id: a, label: 'single', status: 'completed', durationMs: 2000, peakCpu: 99, peakRssBytes: 60e6, peakProcesses: 4, rawRows: 2, rawSampled: false });
    expect(tb).toMatchObject({ id: b, status: 'failed', reason: 'server crashed', rawRows: 0 });
    expect(ta.phases.map((p) => p.index)).toEqual([0, 1]);
    expect(ta.phases[0]).toEqual(phaseResult(0));
    expect(ta.phases[1].processing).toBeNull();

    const h = temp.store.getHistograms(runId);
    expect(h.map((x) => [x.targetId, x.phaseIndex])).toEqual([[a, 0], [a, 1], [b, 0]]);
    expect(h[1].processing).toBeNull();
    expect(decodedMax(h[0].total)).toBeGreaterThanOrEqual(2990);
    // the whole measurement set reaches the store: server wait and schedule lag too
    expect(decodedMax(h[0].serverWait!)).toBeGreaterThanOrEqual(70);
    expect(decodedMax(h[0].lag!)).toBeGreaterThanOrEqual(30);

    const { windows, samples } = temp.store.getWindows(runId);
    expect(windows).toHaveLength(2);
    expect(windows[0]).toMatchObject({ runId, targetId: a, tMs: 250, phaseIndex: 0, inFlight: 3, queued: 7, total: { p99: 3 }, wait: null });
    expect(windows[1].errors.refused).toBe(1);
    expect(samples).toEqual([{ runId, targetId: a, tMs: 250, cpuPercent: 95.5, rssBytes: 50e6, processes: 3, busy: 2, queue: null }]);

    const page = temp.store.getRequests(runId, a, 100);
    expect(page).toMatchObject({ total: 2, sampled: false });
    expect(page.points[0]).toEqual({ phaseIndex: 0, intendedMs: 0, totalMs: 1, waitMs: 1 - 0.6, processingMs: 0.6, serverWaitMs: 0.05, lagMs: 0.005, ttfbMs: 0.895, transferMs: 0.1, templateIdx: 0, status: 200, error: null });
    // no Server-Timing: wait is unknown as processing is, never the whole total (contract/measurement.ts)
    expect(page.points[1]).toMatchObject({ totalMs: 1, waitMs: null, processingMs: null, status: 0, error: 'timeout' });

    const rows = [...temp.store.iterateRequests(runId)];
    expect(rows).toEqual([{ targetId: a, ...requestRow(0) }, { targetId: a, ...requestRow(1, { error: 'timeout', status: 0, firstByteUs: null, serverProcUs: null, serverWaitUs: null }) }]);
  });

  it('survives closing and reopening the file', () => {
    const { runId } = seedRun(temp.store);
    temp.store.finishRun(runId, 'completed', null);
    temp.reopen();
    expect(temp.store.getRun(runId).status).toBe('completed');
  });

  it('ends targets left running or pending when a run ends', () => {
    const { runId, targetIds } = seedRun(temp.store);
    const pending = temp.store.createTarget({ runId, cellIndex: 1, serverIndex: 1, label: 'x', architecture: 'offload' });
    temp.store.updateTarget(targetIds[0], { status: 'completed' });
    temp.store.finishRun(runId, 'cancelled', 'Ctrl-C');
    const run = temp.store.getRun(runId);
    expect(run).toMatchObject({ status: 'cancelled', reason: 'Ctrl-C' });
    expect(run.targets.map((t) => [t.id, t.status])).toEqual([[targetIds[0], 'completed'], [targetIds[1], 'cancelled'], [pending, 'skipped']]);
  });
});

describe('missing runs', () => {
  it('say which run and how to list them', () => {
    for (const call of [() => temp.store.getRun(42), () => temp.store.getWindows(42), () => temp.store.getHistograms(42), () => temp.store.iterateRequests(42), () => temp.store.finishRun(42, 'completed', null)]) {
      expectCode(call, 'LS_ERR_RUN_NOT_FOUND', /^no run 42; `loadscope list` shows the stored runs$/);
    }
    expectCode(() => temp.store.getRequests(42, 1, 10), 'LS_ERR_RUN_NOT_FOUND', /no run 42/);
    const { runId } = seedRun(temp.store);
    expectCode(() => temp.store.getRequests(runId, 999, 10), 'LS_ERR_RUN_NOT_FOUND', /no server run \(target\) 999/);
    expectCode(() => temp.store.insertRequests(999, requestBatch(0, 1)), 'LS_ERR_RUN_NOT_FOUND');
    expectCode(() => temp.store.updateTarget(999, { status: 'failed' }), 'LS_ERR_RUN_NOT_FOUND');
  });
});

describe('interrupted on open', () => {
  it('marks a run left running by a closed store interrupted, its running targets failed', () => {
    const { runId, targetIds } = seedRun(temp.store);
    temp.store.updateTarget(targetIds[1], { status: 'completed' });
    const pending = temp.store.createTarget({ runId, cellIndex: 1, serverIndex: 1, label: 'later', architecture: 'offload' });
    const done = temp.store.createRun(newRun());
    temp.store.finishRun(done, 'completed', null);
    temp.reopen(); // as if the process died mid-run
    const run = temp.store.getRun(runId);
    expect(run).toMatchObject({ status: 'interrupted', reason: INTERRUPTED_REASON });
    expect(run.targets.map((t) => [t.id, t.status, t.reason])).toEqual([
      [targetIds[0], 'failed', 'interrupted'],
      [targetIds[1], 'completed', null],
      [pending, 'skipped', 'interrupted'],
    ]);
    expect(temp.store.getRun(done).status).toBe('completed');
  });

  it('marks a run whose writer process is gone interrupted', () => {
    const { runId } = seedRun(temp.store);
    temp.reopen((dbPath) => rawSql(dbPath, 'UPDATE runs SET owner_pid = ? WHERE id = ?', 2 ** 22 + 12345, runId)); // above Linux's pid_max: never alive
    expect(temp.store.getRun(runId).status).toBe('interrupted');
  });

  it('leaves a run alone while the store writing it is still open (a second reader beside a live run)', () => {
    const { runId } = seedRun(temp.store);
    const reader = openStore(temp.dbPath);
    try {
      expect(reader.getRun(runId).status).toBe('running');
    } finally {
      reader.close();
    }
    expect(temp.store.getRun(runId).status).toBe('running');
  });
});

describe('deleteRun', () => {
  it('cascades to every table and reports whether anything was deleted', () => {
    const { runId, targetIds } = seedRun(temp.store);
    const other = seedRun(temp.store);
    for (const s of [temp.store]) {
      s.savePhase(targetIds[0], phaseResult(0), histograms());
      s.insertWindows([{ targetId: targetIds[0], tMs: 250, phaseIndex: 0, count: 1, throughput: 4, errors: {}, inFlight: 1, total: null, wait: null, processing: null }]);
      s.insertSamples([{ targetId: targetIds[0], tMs: 250, cpuPercent: 1, rssBytes: 1, processes: 1, busy: null, queue: null }]);
      s.insertRequests(targetIds[0], requestBatch(0, 10));
      s.insertRequests(other.targetIds[0], requestBatch(0, 5));
    }
    expect(temp.store.deleteRun(runId)).toBe(true);
    expect(temp.store.deleteRun(runId)).toBe(false);
    expectCode(() => temp.store.getRun(runId), 'LS_ERR_RUN_NOT_FOUND');
    temp.reopen((dbPath) => {
      const raw = new Database(dbPath);
      const count = (table: string) => raw.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
      expect([count('cells'), count('targets'), count('phases'), count('windows'), count('samples'), Number(raw.prepare(`SELECT ${STORED_ROWS_SQL}`).pluck().get())]).toEqual([2, 2, 0, 0, 0, 5]);
      raw.close();
    });
  });
});

describe('listRuns', () => {
  it('summarises runs newest first, filtered by text and status', () => {
    const a = seedRun(temp.store, { scenarioName: 'seed-000', title: 'Image pipeline: cluster vs autoscale' });
    temp.store.savePhase(a.targetIds[0], phaseResult(0, { count: 100, ok: 98, total: stats(10, 100) }), histograms());
    temp.store.savePhase(a.targetIds[1], phaseResult(0, { count: 300, ok: 300, errors: {}, total: stats(30, 300) }), histograms());
    temp.store.finishRun(a.runId, 'completed', null);
    const b = seedRun(temp.store, { scenarioName: 'seed-004', title: '100%_done', quick: true });
    temp.store.finishRun(b.runId, 'failed', 'server crashed');

    const all = temp.store.listRuns();
    expect(all.map((r) => r.id)).toEqual([b.runId, a.runId]);
    expect(all[1]).toMatchObject({ scenarioName: 'seed-000', status: 'completed', requests: 400, errors: 2, servers: ['single', 'cluster'], quick: false });
    expect(all[1].meanTotalMs).toBeCloseTo((100 * 10 + 300 * 30) / 400);
    expect(all[0]).toMatchObject({ requests: 0, errors: 0, meanTotalMs: null, quick: true });

    expect(temp.store.listRuns({ text: 'AUTOSCALE' }).map((r) => r.id)).toEqual([a.runId]);
    expect(temp.store.listRuns({ text: 'seed-00' })).toHaveLength(2);
    expect(temp.store.listRuns({ text: '%' }).map((r) => r.id)).toEqual([b.runId]); // % is literal, not a wildcard
    expect(temp.store.listRuns({ text: String(a.runId) }).map((r) => r.id)).toContain(a.runId);
    expect(temp.store.listRuns({ status: 'failed' }).map((r) => r.id)).toEqual([b.runId]);
    expect(temp.store.listRuns({ status: 'running' })).toEqual([]);
    expect(temp.store.listRuns({ limit: 1 }).map((r) => r.id)).toEqual([b.runId]);
  });
});

describe('reading stored data', () => {
  it('gives error counts back as stored: sparse, with no key for a kind that did not happen', () => {
    const { runId, targetIds } = seedRun(temp.store);
    temp.store.savePhase(targetIds[0], phaseResult(0), histograms());
    temp.reopen((dbPath) => rawSql(dbPath, `UPDATE phases SET errors_json = '{"timeout": 2}'`));
    expect(temp.store.getRun(runId).targets[0].phases[0].errors).toEqual({ timeout: 2 });
  });

  it('refuses a JSON column that does not match the contract with LS_ERR_DB', () => {
    const { runId, targetIds } = seedRun(temp.store);
    temp.store.savePhase(targetIds[0], phaseResult(0), histograms());
    temp.reopen((dbPath) => rawSql(dbPath, `UPDATE phases SET total_json = '{"mean": "fast"}'`));
    expectCode(() => temp.store.getRun(runId), 'LS_ERR_DB', /run \d+.*total/);
  });
});
