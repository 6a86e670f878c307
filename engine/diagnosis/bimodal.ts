import type { Finding } from '../../contract/diagnosis.js';
import { lagMakesTail } from '../../contract/generator-lag.js';
import { LATENCY_BUCKET_COUNT, latencyBucketHighMs, latencyBucketLowMs, latencyBucketOf } from '../../contract/latency-buckets.js';
import { phaseEndpoints, type LiveWindow } from '../../contract/results.js';
import { figureIn } from './figures-in.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// The times fall in two bands, not one long tail: the phase's heatmap histogram (its windows' total
// buckets) has a fast band holding the median, a valley nearly empty, and a slow band beyond it
// holding the p99. A long tail thins out steadily (every doubling further out holds fewer); two
// bands mean two kinds of request: one slow endpoint, or some requests that meet something the
// others do not (a lock, a cache miss, a pause). Named by the endpoints whose median is slow.
//
//   count ▲ fast band                      slow band
//         │ ███                             ██
//         │ █████        valley            ███
//         └─────────────[ one doubling ]───────────▶ log time
//               p50                          p99

/** p99 / p50 at or above which the tail is far from the median (then the p99 is another kind of request, or a long tail). */
export const TAIL_RATIO = 4;
/** Buckets the valley spans: four make one doubling of time (contract/latency-buckets.ts), so the bands are at least 2x apart. */
export const VALLEY_BUCKETS = 4;
/**
 * The slow band's densest doubling over the valley's requests (+1, so an empty valley counts one)
 * at or above which the two are bands: a tail that thins out steadily has every doubling further
 * out at most as full as the one before it (ratio <= 1); 4x is far from that.
 */
export const BAND_CONTRAST = 4;
/** Fewest requests the slow band must hold: below it, a few stalled requests on a busy machine could make a "band". */
export const MIN_SLOW_REQUESTS = 10;
/**
 * Share of the phase's windows (with requests) that must hold a slow-band request, and at least two
 * of them: a band runs through the phase; a slow start does not (the ground truth's wrong-path
 * phase had its first third in a band of its own on a busy machine, all in its one window).
 */
export const BAND_WINDOW_SHARE = 0.5;

/**
 * A phase's total buckets summed over its windows: count per bucket. A typed array of the buckets'
 * number, so a damaged row's bucket (out of range, fractional, NaN) writes nowhere; a count that is
 * not positive is left out rather than cancel the others.
 */
function phaseHistogram(windows: readonly LiveWindow[]): Float64Array {
  const hist = new Float64Array(LATENCY_BUCKET_COUNT);
  for (const w of windows) {
    const b = w.totalBuckets ?? [];
    for (let i = 0; i + 1 < b.length; i += 2) if (b[i + 1]! > 0) hist[b[i]!]! += b[i + 1]!;
  }
  return hist;
}

const sum = (h: Float64Array, from: number, to: number) => h.subarray(from, to).reduce((a, b) => a + b, 0);

interface Valley { from: number; slow: number; contrast: number }

/** The valley past the median's bucket that best splits two bands, or null when none does. */
function bestValley(hist: Float64Array, medianBucket: number): Valley | null {
  let best: Valley | null = null;
  for (let v = medianBucket + 1; v + VALLEY_BUCKETS < LATENCY_BUCKET_COUNT; v++) {
    const slow = sum(hist, v + VALLEY_BUCKETS, LATENCY_BUCKET_COUNT);
    // the slow band only shrinks as the valley moves out
    if (slow < MIN_SLOW_REQUESTS) break;
    let peak = 0;
    for (let k = v + VALLEY_BUCKETS; k < LATENCY_BUCKET_COUNT; k++) peak = Math.max(peak, sum(hist, k, k + VALLEY_BUCKETS));
    const contrast = peak / (sum(hist, v, v + VALLEY_BUCKETS) + 1);
    if (best === null || contrast > best.contrast) best = { from: v, slow, contrast };
  }
  return best !== null && best.contrast >= BAND_CONTRAST ? best : null;
}

/** Whether the slow band runs through the phase: in at least BAND_WINDOW_SHARE of its windows with requests, and two. */
function throughThePhase(windows: readonly LiveWindow[], slowFrom: number): boolean {
  const counted = windows.filter((w) => (w.totalBuckets ?? []).length > 0);
  const slow = counted.filter((w) => {
    const b = w.totalBuckets!;
    for (let i = 0; i + 1 < b.length; i += 2) if (b[i]! >= slowFrom && b[i + 1]! > 0) return true;
    return false;
  });
  return slow.length >= 2 && slow.length >= BAND_WINDOW_SHARE * counted.length;
}

/** The bucket at which half of the buckets from `from` on are counted: a band's median, as its bucket. */
function medianBucketFrom(hist: Float64Array, from: number): number {
  const half = sum(hist, from, LATENCY_BUCKET_COUNT) / 2;
  let seen = 0;
  for (let k = from; k < LATENCY_BUCKET_COUNT; k++) if ((seen += hist[k]!) >= half) return k;
  return LATENCY_BUCKET_COUNT - 1;
}

export const bimodal: DiagnosisRule = {
  id: 'bimodal',
  kind: 'finding',
  about: {
    summary: "p99 far above p50 and the times in two bands (the heatmap's histogram: a fast band, a near-empty valley, a slow band), naming the endpoint that is the slow band when one is: two kinds of request, not one slow service",
    thresholds: [
      { name: 'TAIL_RATIO', value: TAIL_RATIO, why: 'total p99 / p50 at or above it: the tail is far from the median' },
      { name: 'VALLEY_BUCKETS', value: VALLEY_BUCKETS, why: 'the valley spans one doubling of time (four heatmap buckets, contract/latency-buckets.ts): the bands are at least 2x apart' },
      { name: 'BAND_CONTRAST', value: BAND_CONTRAST, why: "the slow band's densest doubling / (the valley's requests + 1) at or above it: a tail that thins out steadily stays at or below 1" },
      { name: 'MIN_SLOW_REQUESTS', value: MIN_SLOW_REQUESTS, why: 'the slow band holds at least this many requests: fewer could be one stall of a busy machine' },
      { name: 'BAND_WINDOW_SHARE', value: BAND_WINDOW_SHARE, why: "share of the phase's 250 ms windows (and at least two) holding a slow-band request: a band runs through the phase, a slow start does not (seen: a 40-request phase of 404s on a busy machine, its first third at ~6 ms against a 1 ms median)" },
    ],
    blindSpots: [
      'needs the windows\' heatmap buckets: runs stored before them (and k6 imports without them) are silent',
      'an endpoint is named when its median lies in the slow band; a slow band made of a share of each endpoint\'s requests (a lock, a cache miss, a pause) names none',
      'a phase of one 250 ms window, or whose slow requests all came in its first windows (a slow start: cold connections, a cold server), is silent',
      'a slow band holding half the requests or more holds the median: p99 / p50 is then small and it is silent (the fast band is then the odd one)',
      "silent where the generator's own lag is most of the p99 (generator-limited's condition): a stalled generator sends what it owed late, a band of its own lag, not of the server's",
    ],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ phase, windows, place }): Finding[] => {
      const p50 = figureIn(run.engine, phase, 'total', 'p50');
      const p99 = figureIn(run.engine, phase, 'total', 'p99');
      if (p50 === null || p99 === null || !(p50 > 0) || !(p99 / p50 >= TAIL_RATIO)) return [];
      // a slow band of the generator's own lag (it stalled, then sent what it owed) is generator-limited's
      if (lagMakesTail(figureIn(run.engine, phase, 'lag', 'p99'), p99)) return [];
      const hist = phaseHistogram(windows);
      const all = sum(hist, 0, LATENCY_BUCKET_COUNT);
      // counts past any real run's that add up beyond a number: a damaged row, nothing to read
      if (!Number.isFinite(all)) return [];
      // none without buckets: an empty histogram holds no slow band
      const valley = bestValley(hist, latencyBucketOf(p50 * 1000));
      if (valley === null || !throughThePhase(windows, valley.from + VALLEY_BUCKETS)) return [];
      const split = latencyBucketLowMs(valley.from + VALLEY_BUCKETS / 2);
      const slowMedian = medianBucketFrom(hist, valley.from + VALLEY_BUCKETS);
      const slowMs = (latencyBucketLowMs(slowMedian) + latencyBucketHighMs(slowMedian)) / 2;
      const endpoints = phaseEndpoints(phase);
      // endpoints whose own median is in the slow band, when they hold most of it
      const slowEndpoints = endpoints.filter((e) => (figureIn(run.engine, e, 'total', 'p50') ?? 0) >= split);
      const named = slowEndpoints.length > 0 && slowEndpoints.reduce((n, e) => n + e.count, 0) >= valley.slow / 2 ? slowEndpoints : [];
      const share = (valley.slow / all) * 100;
      const who = named.length > 0
        ? `the slow band is ${named.length === 1 ? 'endpoint' : 'endpoints'} ${named.map((e) => e.name).join(', ')}: one slow endpoint, not the service`
        : `the slow band is a share of ${endpoints.length > 1 ? "every endpoint's" : 'the same'} requests: something some requests meet and others do not (a lock, a cache miss, a pause)`;
      return [{
        rule: 'bimodal',
        kind: 'finding',
        text: `the times fall in two bands, not one long tail: ${share.toFixed(share < 10 ? 1 : 0)} % of requests took about ${slowMs.toFixed(0)} ms while the median was ${p50.toFixed(1)} ms (p99 / p50 ${(p99 / p50).toFixed(0)}x); ${who}`,
        evidence: { ...place, ...(named.length === 1 ? { endpoint: named[0]!.name } : {}), figures: [
          { name: 'total p50', value: p50, unit: 'ms' },
          { name: 'total p99', value: p99, unit: 'ms' },
          { name: 'slow band', value: valley.slow, unit: 'requests' },
          { name: 'slow band share', value: share, unit: '%' },
          { name: 'slow band median (about)', value: slowMs, unit: 'ms' },
          { name: 'bands split at', value: split, unit: 'ms' },
          ...named.map((e) => ({ name: `${e.name} p50`, value: figureIn(run.engine, e, 'total', 'p50') ?? 0, unit: 'ms' })),
        ] },
        confidence: valley.slow >= 3 * MIN_SLOW_REQUESTS ? 'high' : 'medium',
        wouldChange: named.length > 0 ? 'the same phase without that endpoint: if the p99 falls to the fast band, it was that endpoint' : 'the slow requests\' rows (Server-Timing processing, their times): a slow band that is processing is the server\'s work on some requests; one that is wait is a queue they met',
        next: named.length > 0 ? `look at ${named.map((e) => e.name).join(', ')} on its own (its processing, what it calls); a threshold per endpoint keeps it from hiding in the phase's p99` : 'find what the slow requests share (every Nth, a key, a cache miss, a GC pause): the server\'s logs or traces at those times',
      }];
    });
  },
};
