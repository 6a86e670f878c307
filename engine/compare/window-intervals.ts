import type { WindowFigure } from '../../contract/compare.js';
import type { Prng } from '../../contract/prng.js';
import type { LiveWindow } from '../../contract/results.js';

// The figures that only the live windows keep (engine/compare/compare-intervals.ts owns the rest): a
// phase's throughput, and its streams' figures (issue 41). No raw row keeps a message's time (a
// stream is one request row; its messages are counted in the 250 ms windows: ttfe, gap and rtt's
// mean/p50/p90/p99/max and the messages' rate), so the unit resampled is the window.
//  - throughput and messages.rate: the weighted mean of the windows' values, bootstrapped here;
//  - a stream's times: each window made a block of pseudo-values spread along its quantiles
//    (streamBlocks), so the rows' block bootstrap pools them as it pools rows. A phase's p99 is
//    set by the few windows that hold its tail: a mean of the windows' p99s would not move when
//    those are drawn twice or not at all, and its interval would be far too narrow.
// The draws are then scaled by phase figure / the pooled blocks' own (pseudo-values are not the
// messages), so the interval is their relative spread around the figure compared and holds the
// point ratio. Windows are per phase: an endpoint's stream figures have no interval.

export interface Weighted {
  values: Float64Array;
  weights: Float64Array;
}

type WindowOnly = Extract<WindowFigure, { sample: 'throughput' | 'messages.rate' }>;
type StreamTimes = Extract<WindowFigure, { sample: 'stream' }>;

/** Whether a figure's interval is the weighted mean of window values (throughput, messages.rate). */
export function fromWindowMeans(figure: WindowFigure): figure is WindowOnly {
  return figure.sample === 'throughput' || figure.sample === 'messages.rate';
}

/** pseudo-values a window gives at most (the busiest window); the others in proportion to their messages, at least one */
const BLOCK_POINTS = 32;

/**
 * A phase's windows as blocks of pseudo-values of one stream time: each window's values spread
 * along its quantiles (min(mean, p50) at 0, p50, p90, p99, max at 1, linear between), as many as
 * its messages allow in proportion (ttfe, one per stream and not counted per window: as many each).
 */
export function streamBlocks(windows: readonly LiveWindow[], figure: StreamTimes): Float64Array[] {
  const used = windows.filter((w) => w.stream?.[figure.of]);
  const most = Math.max(1, ...used.map((w) => w.stream!.messages));
  return used.map((w) => {
    const s = w.stream![figure.of]!;
    const k = figure.of === 'ttfe' ? BLOCK_POINTS / 4 : Math.max(1, Math.round((BLOCK_POINTS * w.stream!.messages) / most));
    const knots: [number, number][] = [[0, Math.min(s.mean, s.p50)], [0.5, s.p50], [0.9, s.p90], [0.99, s.p99], [1, s.max]];
    return Float64Array.from({ length: k }, (_, j) => {
      const q = (j + 0.5) / k;
      let i = 1;
      while (i < knots.length - 1 && q > knots[i]![0]) i++;
      const [[q0, v0], [q1, v1]] = [knots[i - 1]!, knots[i]!];
      return v0 + ((v1 - v0) * (q - q0)) / (q1 - q0);
    });
  });
}

/** A phase's windows as weighted values of one figure. */
function weightedOf(windows: readonly LiveWindow[], figure: WindowOnly): Weighted {
  const values: number[] = [];
  const weights: number[] = [];
  for (const w of windows) {
    if (figure.sample === 'throughput') {
      if (w.count <= 0) continue;
      values.push(w.throughput);
      weights.push(1);
    } else {
      // every window of the phase weighs the same, one without a message at rate 0: a subscription
      // that stalls is a lower rate, not a missing window (a stream ends as a request only at its end)
      values.push(w.stream?.rate ?? 0);
      weights.push(1);
    }
  }
  return { values: Float64Array.from(values), weights: Float64Array.from(weights) };
}

function weightedMean({ values, weights }: Weighted, from = 0, to = values.length): number {
  let sum = 0;
  let weight = 0;
  for (let i = from; i < to; i++) {
    sum += values[i]! * weights[i]!;
    weight += weights[i]!;
  }
  return weight > 0 ? sum / weight : NaN;
}

/** `resamples` bootstrap values of the weighted mean. */
function bootstrap({ values, weights }: Weighted, prng: Prng, resamples: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
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

/** |log(second half / first half)| of the windows' weighted mean. */
function windowDrift(w: Weighted): number {
  const half = Math.floor(w.values.length / 2);
  const a = weightedMean(w, 0, half);
  const b = weightedMean(w, half);
  return a > 0 && b > 0 ? Math.abs(Math.log(b / a)) : 0;
}

/**
 * One side's bootstrap of a window mean: its draws (messages.rate's scaled to `point`, the phase's
 * own rate, where the windows' mean differs from it), drift and window count; null with fewer than
 * `minWindows` windows.
 */
export function windowBoot(windows: readonly LiveWindow[], figure: WindowOnly, point: number, prng: Prng, resamples: number, minWindows: number): { n: number; values: Float64Array; drift: number } | null {
  const w = weightedOf(windows, figure);
  if (w.values.length < minWindows) return null;
  const values = bootstrap(w, prng, resamples);
  const own = weightedMean(w);
  if (figure.sample !== 'throughput') scaleTo(values, point, own);
  return { n: w.values.length, values, drift: windowDrift(w) };
}

/** Draws scaled by point / own: their spread kept, centred on the phase's own figure (unchanged where either is not positive). */
export function scaleTo(draws: Float64Array, point: number, own: number): Float64Array {
  if (own > 0 && point > 0) for (let i = 0; i < draws.length; i++) draws[i] = draws[i]! * (point / own);
  return draws;
}
