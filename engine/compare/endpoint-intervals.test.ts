import { describe, expect, it } from 'vitest';
import { beyondNoise, pairPhases } from '../../contract/compare.js';
import { seededRandom } from '../../contract/prng.js';
import type { EndpointResult, LatencyStats, LiveWindow, PhaseResult, RequestPoint, RunSummary } from '../../contract/results.js';
import { compareIntervals } from './compare-intervals.js';

// An endpoint pair's interval comes from that endpoint's rows only (issue 26): with one endpoint
// three times slower in B and the other unchanged, the slow one's ratio is beyond the noise and the
// unchanged one's is not, though both share a phase (whose rows, pooled, changed). The stored
// windows are per phase, so an endpoint's throughput has no interval (never coloured).

const BLOCKS = 24;
const PER_BLOCK = 20;

function rows(seed: number, slowFactor: number): RequestPoint[] {
  // seeded: the same jitter every run
  const r = seededRandom(seed);
  const out: RequestPoint[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    for (let i = 0; i < PER_BLOCK; i++) {
      const templateIdx = i % 2;
      const base = templateIdx === 0 ? 10 : 50 * slowFactor;
      const totalMs = base * (0.9 + 0.2 * r());
      out.push({ phaseIndex: 0, templateIdx, intendedMs: b * 250 + i * 12, totalMs, waitMs: totalMs / 2, processingMs: totalMs / 2, serverWaitMs: null, lagMs: 0, ttfbMs: null, transferMs: null, status: 200, error: null });
    }
  }
  return out;
}

const stats = (mean: number): LatencyStats => ({ count: 100, mean, min: mean, max: mean * 1.2, stddev: 1, p50: mean, p66: mean, p75: mean, p80: mean, p90: mean, p95: mean, p98: mean, p99: mean * 1.1, p999: mean * 1.2 });
const endpoint = (index: number, name: string, mean: number): EndpointResult => ({ name, index, count: 240, ok: 240, errors: {}, throughput: 40, total: stats(mean), wait: stats(mean / 2), processing: stats(mean / 2), serverWait: null, lag: stats(0) });

function run(id: number, slowMean: number): RunSummary {
  const phase: PhaseResult = {
    index: 0, name: 'load', executor: 'closed', clients: 1, startedMs: 0, durationMs: BLOCKS * 250, count: 480, ok: 480, errors: {}, throughput: 80,
    total: stats((10 + slowMean) / 2), wait: stats(5), processing: stats(5), serverWait: null, lag: stats(0),
    endpoints: [endpoint(0, 'fast', 10), endpoint(1, 'slow', slowMean)],
  };
  const target = { id: id * 10, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed' as const, reason: null, startedAt: null, durationMs: 6000, phases: [phase], peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 480, rawSampled: false };
  return { id, scenarioName: 'endpoints', title: 'endpoints', status: 'completed', reason: null, quick: false, createdAt: '2026-11-25', endedAt: null, durationMs: 6000, machine: null, scenario: {}, engine: 'native', engineNote: null, cells: [], targets: [target], report: [], thresholds: [], group: null };
}

const windows = (runId: number, targetId: number): LiveWindow[] =>
  Array.from({ length: BLOCKS }, (_, b) => ({ runId, targetId, tMs: (b + 1) * 250, phaseIndex: 0, count: PER_BLOCK, throughput: 80 + (b % 3), errors: {}, inFlight: 1, total: null, wait: null, processing: null, queued: 0 }));

describe('Compare intervals of endpoint pairs', () => {
  const a = run(1, 50);
  const b = run(2, 150);
  const rowsOf = [rows(1, 1), rows(2, 3)];
  const intervals = compareIntervals([a, b], { windows: (i) => windows(i + 1, (i + 1) * 10), rows: (i) => rowsOf[i]! });
  const find = (pairKey: string, metric: string) => intervals.find((x) => x.pairKey === pairKey && x.metric === metric);

  it('pairs the endpoints of the split phase', () => {
    expect(pairPhases([a, b]).map((p) => p.key)).toEqual(['single / load', 'single / load / fast', 'single / load / slow']);
  });

  it("each endpoint's interval from its own rows: the slowed one beyond the noise, the unchanged one within it", () => {
    const slow = find('single / load / slow', 'total.mean');
    const fast = find('single / load / fast', 'total.mean');
    expect(slow, 'the slow endpoint has an interval').toBeDefined();
    expect(fast, 'the fast endpoint has an interval').toBeDefined();
    expect(beyondNoise(slow)).toBe(true);
    expect(slow!.low).toBeGreaterThan(2);
    expect(beyondNoise(fast)).toBe(false);
    for (const stat of ['p50', 'p90', 'p99']) expect(beyondNoise(find('single / load / fast', `total.${stat}`)), stat).toBe(false);
    // the phase as a whole, whose pooled rows changed, is beyond the noise too
    expect(beyondNoise(find('single / load', 'total.mean'))).toBe(true);
  });

  it("an endpoint's throughput has no interval (its windows are the phase's); the phase's has one", () => {
    expect(find('single / load / slow', 'throughput')).toBeUndefined();
    expect(find('single / load', 'throughput')).toBeDefined();
  });
});
