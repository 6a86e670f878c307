import { encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import type { LatencyStats, PhaseResult } from '../contract/results.js';
import { openStore } from '../db/store.js';
import { newHdr } from '../engine/driver/measure/fast-histogram.js';

// A capacity search's stored figures, constructed (issue 24): what the engine writes for each server
// run of a search, with the steps chosen so the verdicts are known whatever the machine does: a
// server that failed its throughput and latency while the generator also lagged, one only the
// generator stopped, one whose first step already broke, and one whose throughput no USL explains.
// A step's p99 is its tail: its p999 and max reach it (a p99 above the max reads at the max).

const flat = (v: number): LatencyStats => ({ count: 100, mean: v, min: v, max: v, stddev: 0, p50: v, p66: v, p75: v, p80: v, p90: v, p95: v, p98: v, p99: v, p999: v });
/** One step: offered and achieved rate, total p99 (mean a third of it), the generator's lag p90. */
type Step = [offered: number, achieved: number, p99: number, lagMs?: number];

export const SEEDED: Record<string, Step[]> = {
  'broke-while-lagging': [[50, 50, 40], [100, 23.7, 2200, 30]],
  'generator-only': [[50, 50, 40], [100, 100, 50], [200, 199, 60, 12]],
  'first-step-broke': [[100, 23.7, 2200, 30], [50, 22, 1800], [25, 21, 900], [12.5, 12, 600]],
  // nearly the same concurrency (10 to 13 in flight) at very different throughputs: a poor fit
  jumpy: [[50, 100, 300], [100, 20, 1800], [200, 180, 183], [400, 30, 1300]],
};

const scenario = {
  name: 'capacity-verdicts',
  title: 'Capacity verdicts on known figures',
  servers: Object.keys(SEEDED).map((label) => ({ label, architecture: 'single' })),
  phases: [{ executor: 'rate', rate: 50, durationMs: 1000, timeoutMs: 5000, requests: [{ path: '/' }] }],
  capacity: { maxRate: 5000, maxSteps: 12, latency: { sample: 'total', stat: 'p99', maxMs: 250 } },
};

/** Stores the search in the database file `db` and returns its run id. */
export function seedCapacityRun(db: string): number {
  const store = openStore(db);
  try {
    const runId = store.createRun({ scenarioName: scenario.name, title: scenario.title, quick: false, scenario, machine: null });
    const empty = encodeIntoCompressedBase64(newHdr());
    Object.entries(SEEDED).forEach(([label, steps], serverIndex) => {
      const targetId = store.createTarget({ runId, cellIndex: 0, serverIndex, label, architecture: 'single', status: 'running', startedAt: new Date().toISOString() });
      steps.forEach(([offered, achieved, p99, lagMs = 0.2], index) => {
        const count = Math.round(achieved); // a 1 s step: its requests are its achieved rate
        const phase: PhaseResult = { index, name: `${offered} req/s`, executor: 'rate', clients: 1, startedMs: index * 1000, durationMs: 1000, count, ok: count, errors: {}, throughput: achieved, total: { ...flat(p99 / 3), p99, p999: p99, max: p99 }, wait: flat(1), processing: flat(p99 / 3), serverWait: null, lag: flat(lagMs) };
        store.savePhase(targetId, phase, { total: empty, wait: empty, processing: empty, serverWait: null, lag: empty, ttfb: null, transfer: null });
      });
      store.updateTarget(targetId, { status: 'completed', durationMs: steps.length * 1000 });
    });
    store.finishRun(runId, 'completed', null);
    return runId;
  } finally {
    store.close();
  }
}
