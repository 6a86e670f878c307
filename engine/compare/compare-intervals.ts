import { COMPARE_METRICS, pairPhases, type CompareMetric, type PairedPhase, type PhasePair, type RatioInterval, type Sample, type Stat, type WindowFigure } from '../../contract/compare.js';
import { inLatencyHistograms } from '../../contract/measurement.js';
import { Prng } from '../../contract/prng.js';
import type { LiveWindow, RequestPoint, RunSummary } from '../../contract/results.js';
import { offeredLoad } from './offered-load.js';
import { fromWindowMeans, scaleTo, streamBlocks, windowBoot } from './window-intervals.js';

// Whether a compared ratio is beyond run-to-run noise: a percentile bootstrap of B/A. The unit
// resampled is a 250 ms block of time, not a request: requests next to each other share the
// machine's and the server's state (queues, GC, a busy neighbour), so resampling single requests
// would make intervals far too narrow and colour noise. Latency figures (mean, p50, p90, p99)
// resample blocks of the stored raw rows (by intended time) and compute the figure over the pooled
// rows, as the phase's own figure is computed; throughput and the stream figures (issue 41) resample
// the live windows (engine/compare/window-intervals.ts). The
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
const BLOCK_MS = 250;

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
  return timedBlocksOf(rows, phaseIndex, templateIdx, sample).map((b) => b.values);
}

/** The same blocks with their middle (ms from the server run start), in time order. */
function timedBlocksOf(rows: readonly RequestPoint[], phaseIndex: number, templateIdx: number | null, sample: Sample): { atMs: number; values: Float64Array }[] {
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
  return [...blocks].sort((a, b) => a[0] - b[0]).map(([k, b]) => ({ atMs: k * BLOCK_MS + BLOCK_MS / 2, values: Float64Array.from(b) }));
}

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

/**
 * RESAMPLES draws of mean, p50, p90, p99 over n blocks drawn with replacement. Equal to pooling the
 * drawn blocks and sorting them each time (the HDR rank rule), without doing so: every value is
 * sorted once with its block, and a draw is a count per block, so a percentile is a walk up the
 * sorted values weighing each by its block's count. O(rows) a draw instead of O(rows log rows) and
 * a copy: the sort made Compare of two big runs take seconds (issue 29).
 */
function blockBootstrap(blocks: readonly Float64Array[], prng: Prng): Record<Stat, Float64Array> {
  const out = { mean: new Float64Array(RESAMPLES), p50: new Float64Array(RESAMPLES), p90: new Float64Array(RESAMPLES), p99: new Float64Array(RESAMPLES) };
  const n = blocks.length;
  const total = blocks.reduce((m, b) => m + b.length, 0);
  const order = new Uint32Array(total);
  const values = new Float64Array(total);
  const blockOf = new Uint32Array(total);
  const sums = new Float64Array(n);
  let k = 0;
  blocks.forEach((b, j) => {
    for (let i = 0; i < b.length; i++, k++) {
      values[k] = b[i]!;
      blockOf[k] = j;
      sums[j] += b[i]!;
    }
  });
  for (let i = 0; i < total; i++) order[i] = i;
  order.sort((x, y) => values[x]! - values[y]!);
  const sortedValues = Float64Array.from(order, (i) => values[i]!);
  const sortedBlocks = Uint32Array.from(order, (i) => blockOf[i]!);
  const counts = new Uint32Array(n);
  for (let r = 0; r < RESAMPLES; r++) {
    counts.fill(0);
    for (let j = 0; j < n; j++) counts[Math.floor(prng.next() * n)]!++;
    let len = 0;
    let sum = 0;
    for (let j = 0; j < n; j++) {
      len += counts[j]! * blocks[j]!.length;
      sum += counts[j]! * sums[j]!;
    }
    if (len === 0) {
      out.mean[r] = out.p50[r] = out.p90[r] = out.p99[r] = NaN;
      continue;
    }
    // the value at 0-based rank ceil(q * len) - 1 of the pooled draw: p50 walking up from the
    // smallest, p90 and p99 walking down from the largest (a tenth of the values, not nine tenths)
    const rankOf = (q: number) => Math.max(0, Math.ceil(q * len) - 1);
    const r50 = rankOf(0.5);
    let seen = 0;
    let i = 0;
    for (; i < total - 1; i++) {
      seen += counts[sortedBlocks[i]!]!;
      if (seen > r50) break;
    }
    out.p50[r] = sortedValues[i]!;
    // walking down: the values above index i hold the ranks from len - above up
    const [from90, from99] = [len - rankOf(0.9), len - rankOf(0.99)];
    let above = 0;
    let p99 = NaN;
    for (i = total - 1; i > 0; i--) {
      above += counts[sortedBlocks[i]!]!;
      if (Number.isNaN(p99) && above >= from99) p99 = sortedValues[i]!;
      if (above >= from90) break;
    }
    out.p90[r] = sortedValues[i]!;
    out.p99[r] = Number.isNaN(p99) ? sortedValues[i]! : p99;
    out.mean[r] = sum / len;
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

export interface CompareSamples {
  /** the live windows of a run */
  windows(runIndex: number): readonly LiveWindow[];
  /** a server run's stored rows, evenly sampled (its compare sample, db/compare-sample.ts) */
  rows(runIndex: number, targetId: number): readonly RequestPoint[];
}

/** One stored unit of a phase whose load changes by design: a 250 ms block of rows or a live window, at its offered load. */
interface LevelUnit {
  level: number;
  atMs: number;
  values: Float64Array;
}

type Figures = Record<string, number>;
const FIGURES_OF: Record<'latency' | 'throughput', (units: readonly LevelUnit[]) => Figures> = {
  latency: (units) => statsOf(pool(units.map((u) => u.values))),
  // a window's throughput, each window weighing the same (as the whole-phase interval weighs them)
  throughput: (units) => ({ throughput: units.reduce((sum, u) => sum + u.values[0]!, 0) / units.length }),
};

/** the load levels a ramp's shared range is cut into, at most; each needs two units a side */
const LEVELS = 4;

interface LevelInterval {
  ratio: number;
  low: number;
  high: number;
  drift: { a: number; b: number };
  blocks: { a: number; b: number };
  levels: number;
}

/**
 * B/A at equal offered load: both sides' units within their shared load range, cut into up to LEVELS
 * equal levels; per level, the figure over that level's units; the ratio the geometric mean over the
 * levels. Resampled within each level (the load each level offered is fixed by design, not noise);
 * each side's drift is that of the first half of each level's units against its second (time order),
 * so a ramp's rise by design no longer counts as drift. undefined: the loads do not overlap (compare
 * the whole phase); null: too few units to say (too short).
 */
function levelIntervals(a: readonly LevelUnit[], b: readonly LevelUnit[], kind: 'latency' | 'throughput', prng: Prng): Map<string, LevelInterval> | null | undefined {
  const range = (us: readonly LevelUnit[]) => [Math.min(...us.map((u) => u.level)), Math.max(...us.map((u) => u.level))] as const;
  if (a.length === 0 || b.length === 0) return null;
  const [ra, rb] = [range(a), range(b)];
  const lo = Math.max(ra[0], rb[0]);
  const hi = Math.min(ra[1], rb[1]);
  if (!(hi > lo)) return undefined;
  const inside = (us: readonly LevelUnit[]) => us.filter((u) => u.level >= lo && u.level <= hi);
  const [ia, ib] = [inside(a), inside(b)];
  const k = Math.min(LEVELS, Math.floor(Math.min(ia.length, ib.length) / 2));
  if (k < 2 || ia.length + ib.length < 2 * MIN_BLOCKS) return null;
  const levelOf = (u: LevelUnit) => Math.min(k - 1, Math.floor(((u.level - lo) / (hi - lo)) * k));
  const split = (us: readonly LevelUnit[]) => {
    const out: LevelUnit[][] = Array.from({ length: k }, () => []);
    for (const u of us) out[levelOf(u)]!.push(u);
    return out;
  };
  const [la, lb] = [split(ia), split(ib)];
  const kept = la.map((_, j) => j).filter((j) => la[j]!.length > 0 && lb[j]!.length > 0);
  if (kept.length < 2) return null;
  const figuresOf = FIGURES_OF[kind];
  const keys = Object.keys(figuresOf(ia));
  const logRatio = (fa: readonly Figures[], fb: readonly Figures[], key: string) => {
    let sum = 0;
    for (let j = 0; j < fa.length; j++) {
      const [x, y] = [fa[j]![key]!, fb[j]![key]!];
      if (!(x > 0) || !(y > 0)) return NaN;
      sum += Math.log(y / x);
    }
    return sum / fa.length;
  };
  const point = { a: kept.map((j) => figuresOf(la[j]!)), b: kept.map((j) => figuresOf(lb[j]!)) };
  const resample = (us: readonly LevelUnit[]) => Array.from({ length: us.length }, () => us[Math.floor(prng.next() * us.length)]!);
  const draws = new Map(keys.map((key) => [key, new Float64Array(RESAMPLES)]));
  for (let r = 0; r < RESAMPLES; r++) {
    const fa = kept.map((j) => figuresOf(resample(la[j]!)));
    const fb = kept.map((j) => figuresOf(resample(lb[j]!)));
    for (const key of keys) draws.get(key)![r] = logRatio(fa, fb, key);
  }
  /** mean over levels of |log(second half / first half)| of a side's units in time order */
  const driftOf = (levels: readonly LevelUnit[][], key: string) => {
    const ds: number[] = [];
    for (const j of kept) {
      const us = [...levels[j]!].sort((x, y) => x.atMs - y.atMs);
      if (us.length < 2) continue;
      const half = Math.floor(us.length / 2);
      const [x, y] = [figuresOf(us.slice(0, half))[key]!, figuresOf(us.slice(half))[key]!];
      ds.push(x > 0 && y > 0 ? Math.abs(Math.log(y / x)) : 0);
    }
    return ds.length === 0 ? 0 : ds.reduce((m, d) => m + d, 0) / ds.length;
  };
  const out = new Map<string, LevelInterval>();
  for (const key of keys) {
    const ratio = Math.exp(logRatio(point.a, point.b, key));
    const logs = Float64Array.from(draws.get(key)!.filter((v) => Number.isFinite(v))).sort();
    if (!Number.isFinite(ratio) || logs.length < RESAMPLES * 0.9) continue;
    const [da, db] = [driftOf(la, key), driftOf(lb, key)];
    const widen = Math.exp(Math.hypot(da, db));
    out.set(key, { ratio, low: Math.exp(quantile(logs, 0.025)) / widen, high: Math.exp(quantile(logs, 0.975)) * widen, drift: { a: Math.exp(da), b: Math.exp(db) }, blocks: { a: ia.length, b: ib.length }, levels: kept.length });
  }
  return out;
}

/** Whether a figure's interval is bootstrapped from raw rows (a request's times), not from the live windows. */
const fromRows = (figure: WindowFigure): figure is { sample: Sample; stat: Stat } => figure.sample !== 'throughput' && figure.sample !== 'messages.rate' && figure.sample !== 'stream';

/** A figure's name in the bootstrap's cache: a row sample's draws hold every stat, a window figure's one. */
function figureId(figure: WindowFigure): string {
  return figure.sample === 'stream' ? `stream:${figure.of}:${figure.stat}` : figure.sample;
}

/**
 * Intervals for every paired phase, compared figure and run against A: Compare's figures, or those
 * given (a regression rule's figure that Compare's table leaves out, contract/compare.ts RULE_ONLY_METRICS).
 */
export function compareIntervals(runs: readonly RunSummary[], samples: CompareSamples, metrics: readonly CompareMetric[] = COMPARE_METRICS): RatioInterval[] {
  const out: RatioInterval[] = [];
  type Boot = { n: number } & ({ values: Float64Array; drift: number } | { values: Record<Stat, Float64Array>; drift: Record<Stat, number> });
  const boots = new Map<string, Boot | null>();
  const bootOf = (runIndex: number, targetId: number, phaseIndex: number, templateIdx: number | null, figure: WindowFigure, point: number) => {
    const id = `${runIndex}:${targetId}:${phaseIndex}:${templateIdx ?? ''}:${figureId(figure)}`;
    if (!boots.has(id)) {
      const seed = 1 + runIndex * 7919 + phaseIndex * 104729 + targetId * 31 + (templateIdx === null ? 0 : (templateIdx + 1) * 15485863);
      // the live windows are per phase: an endpoint's throughput and stream figures have no windows of their own, so no interval
      if (!fromRows(figure) && templateIdx !== null) boots.set(id, null);
      else if (fromWindowMeans(figure)) {
        const windows = samples.windows(runIndex).filter((w) => w.targetId === targetId && w.phaseIndex === phaseIndex);
        boots.set(id, windowBoot(windows, figure, point, new Prng(seed), RESAMPLES, MIN_BLOCKS));
      } else if (figure.sample === 'stream') {
        // a stream's times: its windows as blocks of pseudo-values, pooled as rows are (window-intervals.ts)
        const blocks = streamBlocks(samples.windows(runIndex).filter((w) => w.targetId === targetId && w.phaseIndex === phaseIndex), figure);
        boots.set(id, blocks.length < MIN_BLOCKS ? null : { n: blocks.length, values: scaleTo(blockBootstrap(blocks, new Prng(seed))[figure.stat], point, statsOf(pool(blocks))[figure.stat]), drift: blockDrift(blocks)[figure.stat] });
      } else {
        const blocks = blocksOf(samples.rows(runIndex, targetId), phaseIndex, templateIdx, figure.sample);
        boots.set(id, blocks.length < MIN_BLOCKS ? null : { n: blocks.length, values: blockBootstrap(blocks, new Prng(seed)), drift: blockDrift(blocks) });
      }
    }
    const boot = boots.get(id) ?? null;
    if (boot === null) return null;
    if (boot.values instanceof Float64Array) return { n: boot.n, values: boot.values, drift: typeof boot.drift === 'number' ? boot.drift : 0 };
    if (!fromRows(figure) || typeof boot.drift === 'number') return null;
    return { n: boot.n, values: boot.values[figure.stat], drift: boot.drift[figure.stat] };
  };
  /** a side's units at their offered load, for a phase whose load changes by design */
  const unitsOf = (runIndex: number, entry: PairedPhase, figure: Exclude<WindowFigure, { sample: 'stream' | 'messages.rate' }>, at: (ms: number) => number): LevelUnit[] => {
    if (figure.sample === 'throughput') {
      if (entry.templateIdx !== null) return [];
      const windows = samples.windows(runIndex).filter((w) => w.targetId === entry.targetId && w.phaseIndex === entry.phase.index && w.count > 0);
      return windows.map((w) => ({ atMs: w.tMs - BLOCK_MS / 2, level: at(w.tMs - BLOCK_MS / 2), values: Float64Array.of(w.throughput) }));
    }
    return timedBlocksOf(samples.rows(runIndex, entry.targetId), entry.phase.index, entry.templateIdx, figure.sample).map((b) => ({ ...b, level: at(b.atMs) }));
  };
  const levelled = new Map<string, Map<string, LevelInterval> | null | undefined>();
  const levelIntervalOf = (pair: PhasePair, i: number, figure: WindowFigure): LevelInterval | null | undefined => {
    // a stream's figures are judged over the whole phase: its windows are not cut into load levels
    if (figure.sample === 'stream' || figure.sample === 'messages.rate') return undefined;
    const [base, other] = [pair.runs[0]!, pair.runs[i]!];
    const id = `${pair.key}|${i}|${figure.sample}`;
    if (!levelled.has(id)) {
      const la = offeredLoad(runs[0]!, base.targetId, base.phase.index);
      const lb = offeredLoad(runs[i]!, other.targetId, other.phase.index);
      if (la === null || lb === null || la.unit !== lb.unit) levelled.set(id, undefined);
      else {
        const seed = 7 + i * 7919 + base.phase.index * 104729 + (base.templateIdx === null ? 0 : (base.templateIdx + 1) * 15485863);
        const kind = figure.sample === 'throughput' ? 'throughput' : 'latency';
        levelled.set(id, levelIntervals(unitsOf(0, base, figure, la.at), unitsOf(i, other, figure, lb.at), kind, new Prng(seed)));
      }
    }
    const found = levelled.get(id);
    if (found === undefined || found === null) return found;
    return found.get(figure.sample === 'throughput' ? 'throughput' : figure.stat) ?? null;
  };
  for (const pair of pairPhases(runs)) {
    const base = pair.runs[0];
    if (!base) continue;
    for (let i = 1; i < pair.runs.length; i++) {
      const other = pair.runs[i];
      if (!other) continue;
      for (const metric of metrics) {
        const a = metric.get(base.phase, base.engine);
        const b = metric.get(other.phase, other.engine);
        if (!metric.interval || a === null || a === undefined || b === null || b === undefined || a === 0) continue;
        // a ramp against a ramp: judged at equal offered load; too few blocks for that is too short
        const levels = levelIntervalOf(pair, i, metric.interval);
        if (levels === null) continue;
        if (levels !== undefined) {
          out.push({ pairKey: pair.key, metric: metric.key, run: i, ...levels, resamples: RESAMPLES, basis: 'offered load' });
          continue;
        }
        const ba = bootOf(0, base.targetId, base.phase.index, base.templateIdx, metric.interval, a);
        const bb = bootOf(i, other.targetId, other.phase.index, other.templateIdx, metric.interval, b);
        if (!ba || !bb) continue;
        const interval = ratioInterval(ba.values, bb.values, ba.drift, bb.drift);
        if (interval) out.push({ pairKey: pair.key, metric: metric.key, run: i, ratio: b / a, ...interval, resamples: RESAMPLES, basis: 'whole phase', drift: { a: Math.exp(ba.drift), b: Math.exp(bb.drift) }, blocks: { a: ba.n, b: bb.n } });
      }
    }
  }
  return out;
}
