import { describe, expect, it } from 'vitest';
import { packRequests } from '../contract/measurement.js';
import type { StreamFigures } from '../contract/results.js';
import { openStore } from './store.js';
import { histograms, newRun, phaseResult, requestRow, stats } from './test-support/factories.js';
import { expectRequestsRebuildKeepsRows } from './test-support/requests-rebuild.js';
import { useTempDir } from './test-support/temp-store.js';

// Migration 27 (issue 41, streams): a request row may hold a 'stream', 'idle' or 'grpc' error (the
// requests table rebuilt for its CHECK, as 13, 19 and 25 did), and a phase's and a window's stream
// figures (ttfe, gap, rtt, messages) are stored beside the others and read back as measured; a phase
// without a stream reads back without any.

const tmp = useTempDir();

const STREAM: StreamFigures = { streams: 4, messages: 400, rate: 40, bytes: 12_000, sent: 0, ttfe: stats(12), gap: stats(10, 396), rtt: null };

describe('migration 27: stream errors and stream figures', () => {
  it("a version 26 database: every row kept as it was, both indexes again, 'idle' taken, a bad kind still refused", () => {
    expectRequestsRebuildKeepsRows(tmp.dbPath, { from: 26, oldRow: { error: 'check', status: 200 }, newRow: { error: 'idle', status: 200 } });
  });

  it("stream, idle and grpc rows, a phase's and an endpoint's stream figures, a window's: stored and read back as measured; a phase without streams has none", () => {
    const store = openStore(tmp.dbPath);
    const runId = store.createRun(newRun());
    const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex: 0, label: 'single', architecture: 'single' });
    store.insertRequests(targetId, packRequests([requestRow(0, { error: 'stream', status: 200 }), requestRow(1, { error: 'idle', status: 200 }), requestRow(2, { error: 'grpc', status: 200 })]));
    const base = phaseResult(0);
    const { executor: _e, clients: _c, startedMs: _s, durationMs: _d, endpoints: _n, ...figures } = base;
    store.savePhase(targetId, phaseResult(0, { stream: STREAM, endpoints: [{ ...figures, name: 'events', index: 0, stream: STREAM }] }), histograms());
    store.savePhase(targetId, phaseResult(1), histograms());
    const window = { targetId, tMs: 250, phaseIndex: 0, count: 0, throughput: 0, errors: {}, inFlight: 4, total: null, wait: null, processing: null, queued: 0 };
    const streamWindow = { messages: 100, rate: 400, ttfe: null, gap: { mean: 10, p50: 10, p90: 11, p99: 12, max: 13 }, rtt: null };
    store.insertWindows([{ ...window, stream: streamWindow }, { ...window, tMs: 500 }]);
    store.finishRun(runId, 'completed', null);
    expect([...store.iterateRequests(runId)].map((r) => r.error)).toEqual(['stream', 'idle', 'grpc']);
    const [withStreams, without] = store.getRun(runId).targets[0]!.phases;
    expect(withStreams!.stream).toEqual(STREAM);
    expect(withStreams!.endpoints![0]!.stream).toEqual(STREAM);
    expect('stream' in without!).toBe(false);
    const [first, second] = store.getWindows(runId).windows;
    expect(first!.stream).toEqual(streamWindow);
    expect('stream' in second!).toBe(false);
    store.close();
  });
});
