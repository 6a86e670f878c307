import type { RatioInterval } from '../../../contract/compare.js';
import type { LatencyStats, PhaseResult, RunSummary } from '../../../contract/results.js';

// Comparisons built by hand for explain-difference's unit tests: a phase made of its parts (client
// queue, the server's wait and processing, transfer), every statistic of a part at one value, so a
// test names the parts that moved; and Compare's intervals set by hand (beyond the noise or not).

function flat(ms: number, count: number): LatencyStats {
  return { count, mean: ms, min: ms, max: ms, stddev: 0, p50: ms, p66: ms, p75: ms, p80: ms, p90: ms, p95: ms, p98: ms, p99: ms, p999: ms };
}

/** A request's time in parts (ms); processing null: no Server-Timing (wait unknown, serverQueue folded into ttfb). */
export interface Parts { lag: number; serverQueue: number; processing: number | null; transfer: number }

export const QUIET: Parts = { lag: 0.2, serverQueue: 1, processing: 10, transfer: 0.3 };

export function partsPhase(parts: Parts, extra: Partial<PhaseResult> = {}): PhaseResult {
  const count = extra.count ?? 2000;
  const ttfb = parts.serverQueue + (parts.processing ?? 0);
  const total = parts.lag + ttfb + parts.transfer;
  return {
    index: 0, name: 'steady', executor: 'closed', clients: 8, startedMs: 0, durationMs: 4000, count, ok: count, errors: {}, throughput: 500,
    total: flat(total, count),
    wait: parts.processing === null ? null : flat(total - parts.processing, count),
    processing: parts.processing === null ? null : flat(parts.processing, count),
    serverWait: null,
    lag: flat(parts.lag, count),
    ttfb: flat(ttfb, count),
    transfer: flat(parts.transfer, count),
    ...extra,
  };
}

export function comparedRun(id: number, phases: PhaseResult[]): RunSummary {
  return {
    id, scenarioName: 's', title: 's', status: 'completed', reason: null, quick: false, createdAt: '', endedAt: null, durationMs: 4000,
    machine: null, scenario: null, engine: 'native', engineNote: null, cells: [], report: [], thresholds: [], group: null,
    targets: [{ id: id * 10, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed', reason: null, startedAt: null, durationMs: 4000, phases, peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 0, rawSampled: false }],
  };
}

/** Compare's interval of one figure of run 1 against run 0: its ratio with a band of `spread` either side (ratio 1 +- spread: within the noise). */
export function ratioInterval(pairKey: string, metric: string, ratio: number, spread = 0.05): RatioInterval {
  return { pairKey, metric, run: 1, ratio, low: ratio * (1 - spread), high: ratio * (1 + spread), resamples: 400, basis: 'whole phase', drift: { a: 1, b: 1 }, blocks: { a: 16, b: 16 } };
}

/** Intervals of the headline and its parts, each at its true ratio between two phases (what compare-intervals would find on flat figures). */
type Figures = Pick<PhaseResult, 'total' | 'wait' | 'processing' | 'ttfb' | 'transfer' | 'throughput'>;

export function intervalsBetween(pairKey: string, a: Figures, b: Figures, spread = 0.05): RatioInterval[] {
  const out: RatioInterval[] = [];
  for (const [metric, get] of [
    ['total.p99', (p: Figures) => p.total.p99],
    ['total.mean', (p: Figures) => p.total.mean],
    ['wait.p99', (p: Figures) => p.wait?.p99 ?? null],
    ['processing.p99', (p: Figures) => p.processing?.p99 ?? null],
    ['ttfb.p99', (p: Figures) => p.ttfb?.p99 ?? null],
    ['transfer.p99', (p: Figures) => p.transfer?.p99 ?? null],
    ['throughput', (p: Figures) => p.throughput],
  ] as const) {
    const [x, y] = [get(a), get(b)];
    if (x !== null && y !== null && x > 0) out.push(ratioInterval(pairKey, metric, y / x, spread));
  }
  return out;
}


/** One endpoint of a split phase, made of its parts as a phase is. */
export function partsEndpoint(name: string, index: number, parts: Parts): NonNullable<PhaseResult['endpoints']>[number] {
  return { ...partsPhase(parts), name, index };
}
