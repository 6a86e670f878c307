import { describe, expect, it } from 'vitest';
import { Diagnosis } from '../../contract/diagnosis.js';
import { latencyBucketOf } from '../../contract/latency-buckets.js';
import type { EndpointResult } from '../../contract/results.js';
import { diagnose } from './index.js';
import { createPhase, createStoredRun, createWindow, flatStats } from './test-support/stored-run-factory.js';

// What the shape rules read beyond a phase's figures comes from disk as it was written: a window's
// heatmap buckets (bimodal), its in-flight count (errors-rise-with-load), a phase's endpoints
// (bimodal, transfer-bound) and its start and length (late-behind-long-work). An odd one (a damaged
// row, an older writer, a k6 import) still gives a diagnosis of the contract's shape, never a throw,
// and no finding that states a figure that is not a number.

const slow = latencyBucketOf(300_000);
const fast = latencyBucketOf(2_000);
// a p99 far above the p50, so bimodal reads the buckets
const tailed = { ...flatStats(2), p50: 2, p99: 300, max: 330 };
const bucketed = (totalBuckets: number[]) => createStoredRun(
  [createPhase({ count: 1000, total: tailed })],
  { windows: [1, 2, 3, 4].map((i) => createWindow({ tMs: 250 * i, totalBuckets })) },
);
const odd = (e: Partial<EndpointResult>): EndpointResult => ({
  name: 'odd', index: 0, count: 10, ok: 10, errors: {}, throughput: 1,
  total: flatStats(Number.NaN), wait: null, processing: null, serverWait: null, lag: flatStats(0), ttfb: null, transfer: flatStats(Number.NaN), ...e,
});
const twoPhases = (late: Parameters<typeof createPhase>[0], lateWindow: Parameters<typeof createWindow>[0] = {}) => createStoredRun(
  [
    createPhase({ index: 0, name: 'early', durationMs: 3000, times: { total: 2000, processing: 800, lag: 0.1 } }),
    createPhase({ index: 1, name: 'late', ...late }),
  ],
  { windows: [createWindow({ phaseIndex: 0, inFlight: 1 }), createWindow({ phaseIndex: 1, ...lateWindow })] },
);

const runs = {
  'heatmap buckets of odd length, out of range, fractional, negative and NaN': bucketed([fast, 900, slow, 50, -1, 10, 500, 10, 3.5, 10, Number.NaN, 10, slow, Number.NaN, slow, -40, slow]),
  'heatmap buckets whose counts are Infinity and huge': bucketed([fast, 900, slow, Number.POSITIVE_INFINITY, slow + 1, 1e308, slow + 2, 1e308]),
  'endpoints whose figures are NaN, with zero and negative counts': createStoredRun([createPhase({
    count: 1000, total: tailed, transfer: flatStats(30), ttfb: flatStats(1), endpoints: [odd({}), odd({ name: 'none', count: 0 }), odd({ name: 'less', count: -5 })],
  })], { windows: [1, 2, 3, 4].map((i) => createWindow({ tMs: 250 * i, totalBuckets: [fast, 225, slow, 25] })) }),
  'transfer and first-byte times that are NaN, Infinity or negative': createStoredRun([
    createPhase({ transfer: flatStats(Number.NaN), ttfb: flatStats(Number.POSITIVE_INFINITY) }),
    createPhase({ index: 1, transfer: flatStats(Number.POSITIVE_INFINITY), ttfb: flatStats(-4) }),
    createPhase({ index: 2, transfer: flatStats(-50), ttfb: flatStats(Number.NaN) }),
  ]),
  'a window whose in-flight count is NaN, beside errors': twoPhases({ count: 100, errors: { http: 50 } }, { inFlight: Number.NaN }),
  'a window whose in-flight count is Infinity, beside errors': twoPhases({ count: 100, errors: { http: 50 } }, { inFlight: Number.POSITIVE_INFINITY }),
  'error counts that are NaN or negative under a rising load': twoPhases({ count: 100, errors: { http: Number.NaN, timeout: -30 } }, { inFlight: 8 }),
  'a late phase whose start and length are NaN': twoPhases({ startedMs: Number.NaN, durationMs: Number.NaN, times: { total: 1500, processing: 1, lag: 0.1 } }),
  // (the early phase's own time is its work, so no other rule reports its endless range)
  'two overlapping phases that never end (infinite lengths)': createStoredRun([
    createPhase({ index: 0, name: 'early', durationMs: Number.POSITIVE_INFINITY, times: { total: 850, processing: 800, lag: 0.1 } }),
    createPhase({ index: 1, name: 'late', startedMs: 100, durationMs: Number.POSITIVE_INFINITY, times: { total: 1500, processing: 1, lag: 0.1 } }),
  ]),
  'a late phase with a negative start and NaN processing': twoPhases({ startedMs: -100, processing: flatStats(Number.NaN) }),
};

describe('the shape rules on odd stored runs', () => {
  it.each(Object.entries(runs))('%s: a diagnosis of the contract\'s shape comes back, with no NaN or Infinity in its words or figures', (_name, stored) => {
    const d = diagnose(stored);
    expect(Diagnosis.safeParse(d).success).toBe(true);
    for (const f of [...d.findings, ...d.cannotAnswer]) {
      expect(f.text, f.rule).not.toMatch(/NaN|Infinity|undefined/);
      for (const fig of f.evidence.figures) expect(Number.isFinite(fig.value), `${f.rule}: ${fig.name}`).toBe(true);
      if (f.evidence.range) expect(Number.isFinite(f.evidence.range.fromMs) && Number.isFinite(f.evidence.range.toMs), `${f.rule}: its range`).toBe(true);
    }
  });
});

describe('damaged heatmap counts do not cancel real ones', () => {
  it('a negative count beside a slow band of 200: the band is still read, as 200 requests', () => {
    const [f] = diagnose(bucketed([fast, 900, slow, 50, slow, -50])).findings;
    expect(f?.rule).toBe('bimodal');
    expect(f?.evidence.figures.find((x) => x.name === 'slow band')?.value).toBe(200);
  });
});
