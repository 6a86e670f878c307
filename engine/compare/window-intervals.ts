import type { WindowFigure } from '../../contract/compare.js';
import type { Prng } from '../../contract/prng.js';
import type { LiveWindow } from '../../contract/results.js';

// The bootstrap of figures that only the live windows keep (engine/compare/compare-intervals.ts owns
// the rest): a phase's throughput, and its streams' figures (issue 41). No raw row keeps a message's
// time (a stream is one request row; its messages are counted in the 250 ms windows: ttfe, gap and
// rtt's mean/p50/p90/p99 and the messages' rate), so the unit resampled is the window, as for
// throughput. A window's p99 is not the phase's p99 (the phase pools every message), so a stream
// latency's draws are scaled by phase figure / the windows' own estimate: the interval is then the
// windows' relative spread around the figure that is compared, and holds the point ratio as the row
// bootstrap's does. Windows are per phase: an endpoint's stream figures have no interval.

export interface Weighted {
  values: Float64Array;
  weights: Float64Array;
}

type WindowOnly = Extract<WindowFigure, { sample: 'throughput' | 'stream' | 'messages.rate' }>;

/** Whether a figure's interval is made from the live windows rather than from raw rows. */
export function fromWindows(figure: WindowFigure): figure is WindowOnly {
  return figure.sample === 'throughput' || figure.sample === 'stream' || figure.sample === 'messages.rate';
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
    } else if (figure.sample === 'messages.rate') {
      // every window of the phase weighs the same, one without a message at rate 0: a subscription
      // that stalls is a lower rate, not a missing window (a stream ends as a request only at its end)
      values.push(w.stream?.rate ?? 0);
      weights.push(1);
    } else {
      const stats = w.stream?.[figure.of];
      if (!stats) continue;
      values.push(stats[figure.stat]);
      // gaps and round trips come with messages; a first event is one per stream, so each window alike
      weights.push(figure.of === 'ttfe' ? 1 : Math.max(1, w.stream!.messages));
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
 * One side's bootstrap of a window figure: its draws (scaled to `point`, the phase's own figure,
 * where the windows' estimate differs from it), drift and window count; null with fewer than
 * `minWindows` windows.
 */
export function windowBoot(windows: readonly LiveWindow[], figure: WindowOnly, point: number, prng: Prng, resamples: number, minWindows: number): { n: number; values: Float64Array; drift: number } | null {
  const w = weightedOf(windows, figure);
  if (w.values.length < minWindows) return null;
  const values = bootstrap(w, prng, resamples);
  const own = weightedMean(w);
  if (figure.sample !== 'throughput' && own > 0 && point > 0) {
    const scale = point / own;
    for (let i = 0; i < values.length; i++) values[i] = values[i]! * scale;
  }
  return { n: w.values.length, values, drift: windowDrift(w) };
}
