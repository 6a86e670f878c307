import type { ServerSample } from '../../../contract/results.js';

// Server samples built by hand for the CPU and memory rules' unit tests: one server run (targetId 1),
// a sample every 500 ms as the sampler takes them, each figure overridable.

export function createSample(overrides: Partial<ServerSample> = {}): ServerSample {
  return { runId: 1, targetId: 1, tMs: 500, cpuPercent: 10, topCpuPercent: 10, rssBytes: 60 * 1024 * 1024, processes: 1, busy: null, queue: null, ...overrides };
}

/** `count` samples every 500 ms from `fromMs` (the first at fromMs + 500), figures from `at(i)`. */
export function sampleSeries(count: number, fromMs: number, at: (i: number) => Partial<ServerSample>): ServerSample[] {
  return Array.from({ length: count }, (_, i) => createSample({ tMs: fromMs + (i + 1) * 500, ...at(i) }));
}
