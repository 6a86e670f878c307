import { PHASE_FIGURES, phaseFigures, type LatencyFigureSet, type PhaseFigure } from './engine-figures.js';
import { STREAM_SAMPLES, type StreamCountName, type StreamSample } from './stream-names.js';
import type { CheckCount, ErrorCounts, LatencyStats, RunEngine, StreamFigures } from './results.js';

// A phase's named figures (issue 37): `total.p99`, `errors.rate`, `throughput`, ... resolved here
// and nowhere else. Thresholds, regression rules, trends, a group's figures, Compare, reports and
// the capacity search all ask `figureOf`, so one name means one number in every view; before, four
// resolvers disagreed at the edges (a legacy wait = total, an all-refused phase's empty histogram).
// contract/figures-owner.test.ts fails on a file that sums error kinds or splits a figure name.
//
//   name = count | errors | errors.count | errors.rate | throughput | durationMs
//        | checks.rate         the share of checks passed (issue 39: expect's checks, contract/checks.ts)
//        | <sample>.<stat>     sample: total wait processing serverWait lag ttfb transfer
//                             stat:   mean min max p50 p66 p75 p80 p90 p95 p98 p99 p999
//        | <message>.<stat>    streams (issue 41, contract/stream.ts): ttfe gap rtt
//        | messages.count | messages.rate | messages.bytes | streams.count

export const FIGURE_STATS = ['mean', 'min', 'max', 'p50', 'p66', 'p75', 'p80', 'p90', 'p95', 'p98', 'p99', 'p999'] as const;
export type FigureStat = (typeof FIGURE_STATS)[number];

export type LatencyFigureName = `${PhaseFigure}.${FigureStat}`;

export type StreamLatencyName = `${StreamSample}.${FigureStat}`;

export type FigureName = 'count' | 'errors' | 'errors.count' | 'errors.rate' | 'throughput' | 'durationMs' | 'checks.rate' | LatencyFigureName | StreamLatencyName | StreamCountName;

/** The checks a figure reads: an endpoint's own, or a phase's through its endpoints. */
interface CheckSource {
  checks?: readonly CheckCount[] | undefined;
  endpoints?: readonly { checks?: readonly CheckCount[] | undefined }[] | undefined;
}

/** What a figure is read from: a phase, or one of its endpoints (which has no duration of its own). */
export type FigurePhase = LatencyFigureSet & CheckSource & { count: number; errors: ErrorCounts; throughput: number; durationMs?: number; stream?: StreamFigures | undefined };

/** The requests that ended in an error of any kind. */
export function errorTotal(errors: ErrorCounts): number {
  let sum = 0;
  for (const n of Object.values(errors)) sum += n ?? 0;
  return sum;
}

/** The errors over the requests; null with no request (no rate at all, not 0). */
export function errorRate(p: Pick<FigurePhase, 'count' | 'errors'>): number | null {
  return p.count > 0 ? errorTotal(p.errors) / p.count : null;
}

/**
 * The checks passed and failed, every check of every response counted once: an endpoint's own, or a
 * phase's over its endpoints; null when it has none (no expect, a run stored before checks were counted).
 */
export function checkTotals(p: CheckSource): { passes: number; fails: number } | null {
  const lists = p.checks !== undefined ? [p.checks] : (p.endpoints ?? []).flatMap((e) => (e.checks === undefined ? [] : [e.checks]));
  if (lists.length === 0) return null;
  let passes = 0;
  let fails = 0;
  for (const list of lists) {
    for (const c of list) {
      passes += c.passes;
      fails += c.fails;
    }
  }
  return { passes, fails };
}

/** The share of checks passed; null with no check made (none written, or no response checked). */
export function checkRate(p: CheckSource): number | null {
  const t = checkTotals(p);
  return t === null || t.passes + t.fails === 0 ? null : t.passes / (t.passes + t.fails);
}

const PERCENTILE = /^p\d+$/;

/** One statistic of a latency figure: null where it timed nothing; a percentile never above the maximum. */
function statOf(s: LatencyStats | null, stat: FigureStat): number | null {
  // an empty histogram (every request refused) reads 0, which is no time at all
  if (s === null || s.count === 0) return null;
  const v = PERCENTILE.test(stat) ? Math.min(s[stat], s.max) : s[stat];
  return Number.isFinite(v) ? v : null;
}

/**
 * The named figure of a phase (or an endpoint read as one) as its run's engine measured it (times
 * in ms); null where it was not measured: no Server-Timing for wait and processing, k6 for the
 * client queue, no requests.
 */
export function figureOf(p: FigurePhase, name: FigureName, engine: RunEngine = 'native'): number | null {
  if (name === 'count') return p.count;
  if (name === 'errors' || name === 'errors.count') return errorTotal(p.errors);
  if (name === 'errors.rate') return errorRate(p);
  if (name === 'throughput') return p.throughput;
  if (name === 'durationMs') return p.durationMs ?? null;
  if (name === 'checks.rate') return checkRate(p);
  const dot = name.indexOf('.');
  const sample = name.slice(0, dot);
  if (sample === 'messages' || sample === 'streams' || (STREAM_SAMPLES as readonly string[]).includes(sample)) return streamFigureOf(p.stream, name as StreamLatencyName | StreamCountName);
  return statOf(phaseFigures(engine, p).stats[sample as PhaseFigure], name.slice(dot + 1) as FigureStat);
}

/** A stream figure: null where the phase opened no stream (or its streams timed nothing of that kind). */
function streamFigureOf(s: StreamFigures | undefined, name: StreamLatencyName | StreamCountName): number | null {
  if (s === undefined) return null;
  if (name === 'messages.count') return s.messages;
  if (name === 'messages.rate') return s.rate;
  if (name === 'messages.bytes') return s.bytes;
  if (name === 'streams.count') return s.streams;
  const dot = name.indexOf('.');
  return statOf(s[name.slice(0, dot) as StreamSample], name.slice(dot + 1) as FigureStat);
}

/** The latency figure a name reads (`wait.p99`: wait), null for a count or rate: where a view finds why it is "-". */
export function figureSample(name: string): PhaseFigure | null {
  const sample = name.slice(0, name.indexOf('.'));
  return (PHASE_FIGURES as readonly string[]).includes(sample) ? (sample as PhaseFigure) : null;
}

/** How a figure adds up over several phases (a report table leaving a dimension out): counts add, the rest as `aggregateMetric` says. */
export function isCountFigure(name: FigureName): boolean {
  return name === 'count' || name === 'errors' || name === 'errors.count' || name === 'messages.count' || name === 'messages.bytes' || name === 'streams.count';
}
