import { clampPercentiles } from '../measurement.js';
import type { LatencyStats } from '../results.js';

// A latency's five figures every summary table shows, in a module of its own: `loadscope show`
// prints them and must not load the report's charts (run-report.ts) to do so (issue 42).

/** The headline figures of one latency: the same five `show --json` prints. */
export interface Stats5 {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function stats5(stats: LatencyStats | null): Stats5 | null {
  const s = clampPercentiles(stats);
  return s ? { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99, max: s.max } : null;
}
