import { z } from 'zod';
import { figureOf } from './figures.js';
import { endpointAsPhase, shownEndpoints } from './endpoints.js';
import { phaseEndpoints, type PhaseResult, type RunEngine, type RunSummary } from './results.js';
import type { StreamSample } from './stream-names.js';

// Comparing runs: what is paired with what, which figures are compared, and the interval that says
// whether a ratio is beyond run-to-run noise. The UI, the CLI and the engine all use these, so the
// two views can never pair different things.
//
//   pair key = server run name (server label + matrix cell) + " / " + phase name
//              (+ " / " + endpoint name for each endpoint of a phase split into several)
//   a run without that key shows "-"; a ratio is coloured only when its interval excludes 1

export type Stat = 'mean' | 'p50' | 'p90' | 'p99';
/** a latency compared: the server's split (wait, processing, with Server-Timing) or the client's own (ttfb, transfer) */
export type Sample = 'total' | 'wait' | 'processing' | 'ttfb' | 'transfer';
/**
 * what a compared figure's interval is bootstrapped from: a latency's 250 ms blocks of raw rows; the
 * throughput's live windows; a stream's figures (issue 41) from its live windows too, since no raw row
 * keeps a message's time (stored per phase: an endpoint's stream figures have none)
 */
export type WindowFigure = { sample: Sample; stat: Stat } | { sample: 'throughput' } | { sample: 'stream'; of: StreamSample; stat: Stat } | { sample: 'messages.rate' };

export interface CompareMetric {
  key: string;
  /** the table's label, unit included */
  label: string;
  /** the figure as the run's engine measured it (k6: no wait without Server-Timing) */
  get: (p: PhaseResult, engine?: RunEngine) => number | null | undefined;
  higherIsBetter: boolean;
  isCount?: boolean;
  /** the per-window figure its interval is bootstrapped from; null: no interval, never coloured */
  interval: WindowFigure | null;
  /** a stream's figure (issue 41): shown only for a pair where some run opened streams */
  stream?: true;
}

const latency = (sample: Sample, stat: Stat | 'max'): CompareMetric => ({
  key: `${sample}.${stat}`,
  label: `${sample} ${stat} (ms)`,
  get: (p, engine = 'native') => figureOf(p, `${sample}.${stat}`, engine),
  higherIsBetter: false,
  interval: stat === 'max' ? null : { sample, stat },
});

function streamLatency(of: StreamSample, stat: Stat | 'max'): CompareMetric {
  const key = `${of}.${stat}` as const;
  return { key, label: `${of} ${stat} (ms)`, get: (p) => figureOf(p, key), higherIsBetter: false, interval: stat === 'max' ? null : { sample: 'stream', of, stat }, stream: true };
}

const MESSAGES_RATE: CompareMetric = { key: 'messages.rate', label: 'messages (/s)', get: (p) => figureOf(p, 'messages.rate'), higherIsBetter: true, interval: { sample: 'messages.rate' }, stream: true };

export const COMPARE_METRICS: readonly CompareMetric[] = [
  { key: 'requests', label: 'requests', get: (p) => figureOf(p, 'count'), higherIsBetter: true, isCount: true, interval: null },
  { key: 'throughput', label: 'throughput (req/s)', get: (p) => figureOf(p, 'throughput'), higherIsBetter: true, interval: { sample: 'throughput' } },
  latency('total', 'mean'),
  latency('total', 'p50'),
  latency('total', 'p90'),
  latency('total', 'p99'),
  latency('total', 'max'),
  latency('wait', 'mean'),
  latency('wait', 'p99'),
  latency('processing', 'mean'),
  latency('processing', 'p99'),
  latency('ttfb', 'mean'),
  latency('ttfb', 'p99'),
  latency('transfer', 'p99'),
  // streams (issue 41): intervals from the phase's live windows (engine/compare/window-intervals.ts); a max has none
  streamLatency('ttfe', 'p50'),
  streamLatency('ttfe', 'p99'),
  streamLatency('gap', 'p99'),
  streamLatency('gap', 'max'),
  streamLatency('rtt', 'p99'),
  MESSAGES_RATE,
];

/**
 * The stream figures a regression rule may name that Compare's table leaves out (to keep it short):
 * their intervals are made by the same code when a rule names them (engine/compare/regression.ts).
 */
export const RULE_ONLY_METRICS: readonly CompareMetric[] = (['ttfe', 'gap', 'rtt'] as const).flatMap((of) =>
  (['mean', 'p50', 'p90', 'p99'] as const).map((stat) => streamLatency(of, stat)).filter((m) => !COMPARE_METRICS.some((c) => c.key === m.key)),
);

/** The metrics a pair shows: a stream's only where some run of it opened streams. */
export function compareMetricsOf(entries: readonly ({ phase: PhaseResult } | null)[]): readonly CompareMetric[] {
  const streams = entries.some((e) => e?.phase.stream !== undefined);
  return streams ? COMPARE_METRICS : COMPARE_METRICS.filter((m) => m.stream !== true);
}

export interface PairedPhase {
  targetId: number;
  /** the phase's figures; for an endpoint pair, the endpoint's read as a phase's (contract/endpoints.ts) */
  phase: PhaseResult;
  /** who sent its load: what it did not measure is no figure (contract/engine-figures.ts) */
  engine: RunEngine;
  /** an endpoint pair: the endpoint's template index in this run (its request rows' templateIdx); null for a phase */
  templateIdx: number | null;
}

export interface PhasePair {
  key: string;
  /** the server run's name ("thread-pool - cores=1 - count=128") */
  server: string;
  phase: string;
  /** the endpoint (request name) of an endpoint pair; null for the phase as a whole */
  endpoint: string | null;
  /** one entry per run, in the runs' order; null where that run has no such server run and phase */
  runs: (PairedPhase | null)[];
}

/**
 * Phases paired across runs by server label, matrix cell and phase name, in A's order then the
 * others'. After each phase, its endpoints paired by name, when some run split that phase into
 * more than one endpoint (a one-endpoint phase is its endpoint).
 */
export function pairPhases(runs: readonly (Pick<RunSummary, 'targets'> & { engine?: RunEngine })[]): PhasePair[] {
  const pairs = new Map<string, PhasePair>();
  const endpoints = new Map<string, Map<string, PhasePair>>();
  const split = new Set<string>();
  runs.forEach((run, i) => {
    const engine = run.engine ?? 'native';
    for (const t of run.targets) {
      for (const p of t.phases) {
        const key = `${t.name} / ${p.name}`;
        let pair = pairs.get(key);
        if (!pair) {
          pair = { key, server: t.name, phase: p.name, endpoint: null, runs: runs.map(() => null) };
          pairs.set(key, pair);
          endpoints.set(key, new Map());
        }
        if (pair.runs[i] !== null) continue;
        pair.runs[i] = { targetId: t.id, phase: p, engine, templateIdx: null };
        if (shownEndpoints(p).length > 0) split.add(key);
        const own = endpoints.get(key)!;
        for (const e of phaseEndpoints(p)) {
          let ep = own.get(e.name);
          if (!ep) {
            ep = { key: `${key} / ${e.name}`, server: t.name, phase: p.name, endpoint: e.name, runs: runs.map(() => null) };
            own.set(e.name, ep);
          }
          ep.runs[i] = { targetId: t.id, phase: endpointAsPhase(p, e), engine, templateIdx: e.index };
        }
      }
    }
  });
  return [...pairs.values()].flatMap((pair) => [pair, ...(split.has(pair.key) ? endpoints.get(pair.key)!.values() : [])]);
}

/** A ratio's interval: the 95 % bootstrap interval of B/A over the phases' live windows. */
export const RatioInterval = z.object({
  pairKey: z.string(),
  metric: z.string(),
  /** index of the run set against A (1 = B) */
  run: z.number(),
  ratio: z.number(),
  low: z.number(),
  high: z.number(),
  /** resamples drawn */
  resamples: z.number(),
  /**
   * what the interval compares: 'whole phase' (its drift is each run's first half against its second);
   * 'offered load' (a phase whose load changes by design: stored blocks paired by offered load level,
   * the ratio the geometric mean over levels, drift within each level)
   */
  basis: z.enum(['whole phase', 'offered load']).optional(),
  /** how far each run drifted within itself, as a factor >= 1 (A's, this run's); the interval is widened by both */
  drift: z.object({ a: z.number(), b: z.number() }).optional(),
  /** the 250 ms blocks (or windows) each side's interval was resampled from (A's, this run's) */
  blocks: z.object({ a: z.number(), b: z.number() }).optional(),
  /** offered-load basis: the load levels paired */
  levels: z.number().optional(),
});
export type RatioInterval = z.infer<typeof RatioInterval>;

/** Whether a ratio is beyond the noise: its interval excludes 1. */
export function beyondNoise(interval: Pick<RatioInterval, 'low' | 'high'> | undefined): boolean {
  return interval !== undefined && (interval.low > 1 || interval.high < 1);
}

/**
 * The too-wide rule: an interval that holds 1 and whose high end is more than TOO_WIDE_SPAN times its
 * low end cannot tell a change from none (the figure may have fallen or risen ten-fold), so it is
 * "too short / too variable to judge", not "within the noise". One that excludes 1 is judged however
 * wide: its direction is known.
 */
export const TOO_WIDE_SPAN = 10;
/** fewer blocks than this on a side (3 s of 250 ms blocks): a too-wide interval is called too short rather than too variable */
export const SHORT_BLOCKS = 12;

/** What a compared ratio's interval lets Compare say. */
export type IntervalJudgement = 'beyond' | 'within' | 'too variable' | 'too short';

export function judgeInterval(interval: Pick<RatioInterval, 'low' | 'high' | 'blocks'> | undefined): IntervalJudgement {
  if (interval === undefined) return 'too short';
  if (beyondNoise(interval)) return 'beyond';
  if (!(interval.low > 0) || interval.high / interval.low > TOO_WIDE_SPAN) {
    return interval.blocks !== undefined && Math.min(interval.blocks.a, interval.blocks.b) < SHORT_BLOCKS ? 'too short' : 'too variable';
  }
  return 'within';
}

const x = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A ratio's interval in words, for a cell's hover (the view) and --json's why (the CLI): what it says and why. */
export function intervalWords(interval: RatioInterval | undefined): string {
  const j = judgeInterval(interval);
  if (interval === undefined) return 'too short to judge: fewer than 4 blocks of 250 ms of stored requests (or live windows) on a side, so no interval';
  const range = `${interval.low.toFixed(3)} – ${interval.high.toFixed(3)}`;
  const basis = interval.basis === 'offered load' ? `, at equal offered load: ${interval.levels ?? 0} load levels of the ramp paired, x${x(interval.ratio)} over them` : '';
  const drift = interval.drift;
  const widened = drift === undefined ? 1 : Math.exp(Math.hypot(Math.log(drift.a), Math.log(drift.b)));
  const driftWords =
    drift === undefined
      ? ''
      : `widened x${x(widened)} by each run's drift within itself (A x${x(drift.a)}, this run x${x(drift.b)}, ${interval.basis === 'offered load' ? 'first against second half of each load level' : 'first half of the phase against its second'}), since a machine whose speed changed would otherwise look like a change`;
  if (j === 'too short' || j === 'too variable') {
    // the interval itself is not printed: it is too wide to mean anything; its span and why are
    const span = `its 95 % interval spans x${interval.low > 0 ? x(interval.high / interval.low) : '∞'} (over x${TOO_WIDE_SPAN}), so it cannot tell a change from none`;
    if (j === 'too short') return `too short to judge${basis}: only ${Math.min(interval.blocks?.a ?? 0, interval.blocks?.b ?? 0)} blocks of 250 ms on a side; ${span}`;
    const why =
      widened >= 2
        ? `the interval is ${driftWords}${interval.basis === 'offered load' ? '' : '; a phase whose load changes by design drifts by design'}`
        : 'its blocks of 250 ms vary that much from one to the next';
    return `too variable to judge${basis}: ${span}. Why so wide: ${why}`;
  }
  return `95 % interval ${range} (bootstrap, ${interval.resamples} resamples${basis})${widened >= 1.05 ? `, ${driftWords}` : ''}: ${j === 'beyond' ? 'beyond the noise' : 'within the noise'}`;
}

export const intervalKey = (pairKey: string, metric: string, run: number): string => `${pairKey}|${metric}|${run}`;
