import type { LatencyStats, PhaseResult } from '../../results.js';
import type { CapacitySearch } from '../../scenario.js';
import { targetCapacity, type TargetCapacity } from '../steps.js';

// Stored capacity steps constructed for tests of the judging and its views: a rate search's phases
// as the engine writes them (named by their offered rate), read back the way every view reads them.

export const SEARCH: CapacitySearch = {
  maxRate: 5000, maxUsers: 1000, factor: 2, tolerance: 0.1, maxSteps: 12, maxDurationMs: 60_000,
  latency: { sample: 'total', stat: 'p99', maxMs: 250 }, maxErrorRate: 0.01, minAchievedRatio: 0.95, maxLagMs: 5,
};
const flat = (v: number): LatencyStats => ({ count: 100, mean: v, min: v, max: v, stddev: 0, p50: v, p66: v, p75: v, p80: v, p90: v, p95: v, p98: v, p99: v, p999: v });

/** A stored step: offered rate, achieved rate, total p99 (its max; the mean a third of it) and the generator's schedule lag. */
export function step(offered: number, achieved: number, p99: number, lagMs = 0.2): Omit<PhaseResult, 'index' | 'startedMs'> {
  // a 1 s step: its requests are its achieved rate
  const count = Math.round(achieved);
  return { name: `${offered} req/s`, executor: 'rate', clients: 1, durationMs: 1000, count, ok: count, errors: {}, throughput: achieved, total: { ...flat(p99 / 3), p99, p999: p99, max: p99 }, wait: flat(1), processing: flat(p99 / 3), serverWait: null, lag: flat(lagMs) };
}

/** The steps, in order, read back as a search starting at the first one's offered rate. */
export function storedSearch(...steps: Omit<PhaseResult, 'index' | 'startedMs'>[]): TargetCapacity {
  const phases = steps.map((p, i) => ({ ...p, index: i, startedMs: i * 1000 }));
  return targetCapacity(SEARCH, { mode: 'rate', start: Number.parseFloat(steps[0]!.name), phases });
}
