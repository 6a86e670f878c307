import { COMPARE_METRICS, pairPhases, type RatioInterval, type Sample, type Stat, type WindowFigure } from '../../contract/compare.js';
import { inLatencyHistograms } from '../../contract/measurement.js';
import type { LiveWindow, RequestPoint, RunSummary } from '../../contract/results.js';

// Whether a compared ratio is beyond run-to-run noise: a percentile bootstrap of B/A. The unit
// resampled is a 250 ms block of time, not a request: requests next to each other share the
// machine's and the server's state (queues, GC, a busy neighbour), so resampling single requests
// would make intervals far too narrow and colour noise. Latency figures (mean, p50, p90, p99)
// resample blocks of the stored raw rows (by intended time) and compute the figure over the pooled
// rows, as the phase's own figure is computed; throughput resamples the live windows. The
// generator is seeded, so the same runs always give the same intervals. Phases with fewer than
// MIN_BLOCKS blocks get no interval (and so no colour).
//
// Resampling sees only the noise inside a run. A shared machine also drifts between runs (another
// job starts, a core gets busier), which no resampling of one run can show; so each interval is
// widened by how far each run drifted within itself (the figure of its first half against its
// second half, combined as independent: sqrt(dA² + dB²) in log space). Two runs of one fixed server
// on a machine that changes speed are then "within the noise"; a real change is still beyond it.

export const RESAMPLES = 400;
export const MIN_BLOCKS = 4;
/** raw rows per server run the bootstrap reads at most (evenly sampled by the store) */
export const ROWS_PER_TARGET = 4000;
const BLOCK_MS = 250;

class Prng {
  constructor(private s: number) {}
  /** mulberry32 */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

interface Weighted {
  values: Float64Array;
  weights: Float64Array;
}

/** One request's time of a compared sample (ms); null where it has none (wait without Server-Timing). */
function pointValue(p: RequestPoint, sample: Sample): number | null {
  switch (sample) {
    case 'total':
      return p.totalMs;
    case 'wait':
      return p.waitMs;
    case 'processing':
      return p.processingMs;
    case 'ttfb':
      return p.ttfbMs;
    case 'transfer':
      return p.transferMs;
  }
}

/** A phase's (or one endpoint's: templateIdx) latency values in 250 ms blocks of intended time. */
function blocksOf(rows: readonly RequestPoint[], phaseIndex: number, templateIdx: number | null, sample: Sample): Float64Array[] {
  const blocks = new Map<number, number[]>();
  for (const p of rows) {
    if (p.phaseIndex !== phaseIndex || !inLatencyHistograms(p.error)) continue;
    if (templateIdx !== null && p.templateIdx !== templateIdx) continue;
    const v = pointValue(p, sample);
    if (v === null) continue;
    const k = Math.floor(p.intendedMs / BLOCK_MS);
    let list = blocks.get(k);
    if (!list) blocks.set(k, (list = []));
    list.push(v);
  }
  return [...blocks.values()].map((b) => Float64Array.from(b));
}

/** RESAMPLES bootstrap values of mean, p50, p90 and p99 over resampled blocks (the HDR rank rule). */
/** mean, p50, p90, p99 of pooled values (the HDR rank rule). */
function statsOf(values: Float64Array): Record<Stat, number> {
  const sorted = Float64Array.from(values).sort();
  const len = sorted.length;
  let sum = 0;
  for (let i = 0; i < len; i++) sum += sorted[i]!;
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * len) - 1)]!;
  return { mean: len > 0 ? sum / len : NaN, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

const pool = (blocks: readonly Float64Array[]): Float64Array => {
  const out = new Float64Array(blocks.reduce((n, b) => n + b.length, 0));
  let k = 0;
  for (const b of blocks) {
    out.set(b, k);
    k += b.length;
  }
  return out;
};

/** |log(second half / first half)| of each stat: how far the run drifted within itself. */
function blockDrift(blocks: readonly Float64Array[]): Record<Stat, number> {
  const half = Math.floor(blocks.length / 2);
  const a = statsOf(pool(blocks.slice(0, half)));
  const b = statsOf(pool(blocks.slice(half)));
  const d = (x: number, y: number) => (x > 0 && y > 0 ? Math.abs(Math.log(y / x)) : 0);
  return { mean: d(a.mean, b.mean), p50: d(a.p50, b.p50), p90: d(a.p90, b.p90), p99: d(a.p99, b.p99) };
}

function blockBootstrap(blocks: readonly Float64Array[], prng: Prng): Record<Stat, Float64Array> {
  const out = { mean: new Float64Array(RESAMPLES), p50: new Float64Array(RESAMPLES), p90: new Float64Array(RESAMPLES), p99: new Float64Array(RESAMPLES) };
  const n = blocks.length;
  let pool = new Float64Array(blocks.reduce((m, b) => Math.max(m, b.length), 0) * n);
  for (let r = 0; r < RESAMPLES; r++) {
    let len = 0;
    for (let j = 0; j < n; j++) {
      const block = blocks[Math.floor(prng.next() * n)]!;
      if (len + block.length > pool.length) {
        const bigger = new Float64Array((len + block.length) * 2);
        bigger.set(pool.subarray(0, len));
        pool = bigger;
      }
      pool.set(block, len);
      len += block.length;
    }
    const sorted = pool.subarray(0, len).sort();
    let sum = 0;
    for (let i = 0; i < len; i++) sum += sorted[i]!;
    const at = (q: number) => sorted[Math.max(0, Math.ceil(q * len) - 1)]!;
    out.mean[r] = len > 0 ? sum / len : NaN;
    out.p50[r] = at(0.5);
    out.p90[r] = at(0.9);
    out.p99[r] = at(0.99);
  }
  return out;
}

function figureOf(windows: readonly LiveWindow[], figure: WindowFigure): Weighted {
  const values: number[] = [];
  const weights: number[] = [];
  for (const w of windows) {
    if (w.count <= 0) continue;
    if (figure.sample === 'throughput') {
      values.push(w.throughput);
      weights.push(1);
    } else {
      const stats = w[figure.sample];
      if (!stats) continue;
      values.push(stats[figure.stat]);
      weights.push(w.count);
    }
  }
  return { values: Float64Array.from(values), weights: Float64Array.from(weights) };
}

/** RESAMPLES bootstrap values of the weighted mean. */
function bootstrap({ values, weights }: Weighted, prng: Prng): Float64Array {
  const n = values.length;
  const out = new Float64Array(RESAMPLES);
  for (let b = 0; b < RESAMPLES; b++) {
    let sum = 0;
    let weight = 0;
    for (let j = 0; j < n; j++) {
      const k = Math.floor(prng.next() * n);
      sum += values[k]! * weights[k]!;
      weight += weights[k]!;
    }
    out[b] = weight > 0 ? sum / weight : NaN;
  }
  return out;
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

/** 95 % interval of B/A from independent bootstrap values of A and B. */
function ratioInterval(a: Float64Array, b: Float64Array, driftA: number, driftB: number): { low: number; high: number } | null {
  const ratios: number[] = [];
  for (let k = 0; k < a.length; k++) if (a[k]! > 0 && Number.isFinite(b[k]!)) ratios.push(b[k]! / a[k]!);
  if (ratios.length < a.length * 0.9) return null;
  const sorted = Float64Array.from(ratios).sort();
  const widen = Math.exp(Math.hypot(driftA, driftB));
  return { low: quantile(sorted, 0.025) / widen, high: quantile(sorted, 0.975) * widen };
}

/** |log(second half / first half)| of the windows' weighted mean. */
function windowDrift({ values, weights }: Weighted): number {
  const half = Math.floor(values.length / 2);
  const mean = (from: number, to: number) => {
    let s = 0;
    let w = 0;
    for (let i = from; i < to; i++) {
      s += values[i]! * weights[i]!;
      w += weights[i]!;
    }
    return w > 0 ? s / w : NaN;
  };
  const a = mean(0, half);
  const b = mean(half, values.length);
  return a > 0 && b > 0 ? Math.abs(Math.log(b / a)) : 0;
}

export interface CompareSamples {
  /** the live windows of a run */
  windows(runIndex: number): readonly LiveWindow[];
  /** the stored raw rows of a server run (evenly sampled) */
  rows(runIndex: number, targetId: number): readonly RequestPoint[];
}

/** Intervals for every paired phase, compared figure and run against A. */
export function compareIntervals(runs: readonly RunSummary[], samples: CompareSamples): RatioInterval[] {
  const out: RatioInterval[] = [];
  type Boot = { values: Float64Array; drift: number } | { values: Record<Stat, Float64Array>; drift: Record<Stat, number> };
  const boots = new Map<string, Boot | null>();
  const bootOf = (runIndex: number, targetId: number, phaseIndex: number, templateIdx: number | null, figure: WindowFigure) => {
    const id = `${runIndex}:${targetId}:${phaseIndex}:${templateIdx ?? ''}:${figure.sample}`;
    if (!boots.has(id)) {
      const seed = 1 + runIndex * 7919 + phaseIndex * 104729 + targetId * 31 + (templateIdx === null ? 0 : (templateIdx + 1) * 15485863);
      // the live windows are per phase: an endpoint's throughput has no windows of its own, so no interval
      if (figure.sample === 'throughput' && templateIdx !== null) boots.set(id, null);
      else if (figure.sample === 'throughput') {
        const f = figureOf(samples.windows(runIndex).filter((w) => w.targetId === targetId && w.phaseIndex === phaseIndex), figure);
        boots.set(id, f.values.length < MIN_BLOCKS ? null : { values: bootstrap(f, new Prng(seed)), drift: windowDrift(f) });
      } else {
        const blocks = blocksOf(samples.rows(runIndex, targetId), phaseIndex, templateIdx, figure.sample);
        boots.set(id, blocks.length < MIN_BLOCKS ? null : { values: blockBootstrap(blocks, new Prng(seed)), drift: blockDrift(blocks) });
      }
    }
    const boot = boots.get(id) ?? null;
    if (boot === null) return null;
    if (boot.values instanceof Float64Array) return { values: boot.values, drift: typeof boot.drift === 'number' ? boot.drift : 0 };
    if (figure.sample === 'throughput' || typeof boot.drift === 'number') return null;
    return { values: boot.values[figure.stat], drift: boot.drift[figure.stat] };
  };
  for (const pair of pairPhases(runs)) {
    const base = pair.runs[0];
    if (!base) continue;
    for (let i = 1; i < pair.runs.length; i++) {
      const other = pair.runs[i];
      if (!other) continue;
      for (const metric of COMPARE_METRICS) {
        const a = metric.get(base.phase, base.engine);
        const b = metric.get(other.phase, other.engine);
        if (!metric.interval || a === null || a === undefined || b === null || b === undefined || a === 0) continue;
        const ba = bootOf(0, base.targetId, base.phase.index, base.templateIdx, metric.interval);
        const bb = bootOf(i, other.targetId, other.phase.index, other.templateIdx, metric.interval);
        if (!ba || !bb) continue;
        const interval = ratioInterval(ba.values, bb.values, ba.drift, bb.drift);
        if (interval) out.push({ pairKey: pair.key, metric: metric.key, run: i, ratio: b / a, ...interval, resamples: RESAMPLES });
      }
    }
  }
  return out;
}
