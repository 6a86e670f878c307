import type { Histogram } from 'hdr-histogram-js';
import { newJsHistogram } from './hdr.js';
import { clampPercentiles } from '../../../contract/measurement.js';
import type { LatencyStats, WindowLatency } from '../../../contract/results.js';

// hdr-histogram-js's recordValue costs ~160 ns here (log2 + pow per value), several times per request.
// FastHistogram records into the very same bucket layout with integer ops (clz32 and shifts), and
// converts to a real HDR histogram (for percentiles, encoding, merging) only when a phase ends.
// Bucketing is HDR's with lowestDiscernibleValue 1: bucket b covers [2^(b+m), 2^(b+m+1)) in sub-buckets
// of width 2^b (m = sub-bucket count magnitude), so two values share a slot exactly when HDR would.
//
//   counts: | bucket 0: 2h slots (width 1) | bucket 1: h slots (width 2) | bucket 2: h (width 4) | ...
//   index = (bucket + 1) * h + (value >> bucket) - h,  h = half the sub-bucket count

/** Values in µs, up to an hour; above that (and below 2^32, which clz32 needs) they are clamped. */
export const HIGHEST_US = 3_600_000_000;

export class FastHistogram {
  readonly counts: Float64Array;
  count = 0;
  sum = 0;
  min = Infinity;
  max = 0;
  private readonly halfMag: number;
  private readonly halfCount: number;

  constructor(readonly digits: 2 | 3 = 3) {
    const subBucketCountMag = Math.ceil(Math.log2(2 * 10 ** digits));
    this.halfMag = subBucketCountMag - 1;
    this.halfCount = 1 << this.halfMag;
    let smallestUntrackable = 1 << subBucketCountMag;
    let buckets = 1;
    while (smallestUntrackable <= HIGHEST_US) {
      smallestUntrackable *= 2;
      buckets++;
    }
    this.counts = new Float64Array((buckets + 1) * this.halfCount);
  }

  record(valueUs: number): void {
    const v = valueUs > 0 ? (valueUs < HIGHEST_US ? Math.round(valueUs) >>> 0 : HIGHEST_US) : 0;
    const b = 31 - Math.clz32(v) - this.halfMag;
    const bucket = b > 0 ? b : 0;
    this.counts[((bucket + 1) << this.halfMag) + (v >>> bucket) - this.halfCount]!++;
    this.count++;
    this.sum += v;
    if (v > this.max) this.max = v;
    if (v < this.min) this.min = v;
  }

  /** The lowest value of slot i. */
  valueFromIndex(i: number): number {
    let bucket = (i >> this.halfMag) - 1;
    let sub = (i & (this.halfCount - 1)) + this.halfCount;
    if (bucket < 0) {
      sub -= this.halfCount;
      bucket = 0;
    }
    return sub * 2 ** bucket;
  }

  /** The highest value sharing slot i. */
  highestInIndex(i: number): number {
    const bucket = Math.max(0, (i >> this.halfMag) - 1);
    return this.valueFromIndex(i) + 2 ** bucket - 1;
  }

  reset(): void {
    if (this.count === 0) return;
    this.counts.fill(0);
    this.count = 0;
    this.sum = 0;
    this.min = Infinity;
    this.max = 0;
  }

  /** An HDR histogram holding exactly what was recorded (to HDR's resolution). */
  toHdr(): Histogram {
    const h = newHdr(this.digits);
    const counts = this.counts;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i]!;
      if (c !== 0) h.recordValueWithCount(this.valueFromIndex(i), c);
    }
    return h;
  }

  /**
   * Mean and standard deviation in µs, exactly as hdr-histogram-js computes them from the same
   * slots (each slot's median-equivalent value), in one pass over the counts: its getters walk the
   * histogram with an iterator, twice for the deviation (~70 ms per phase for the driver's eight).
   */
  moments(): { mean: number; stddev: number } {
    if (this.count === 0) return { mean: 0, stddev: 0 };
    const counts = this.counts;
    let total = 0;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i]!;
      if (c !== 0) total += this.medianInIndex(i) * c;
    }
    const mean = total / this.count;
    let squares = 0;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      const d = this.medianInIndex(i) - mean;
      squares += d * d * c;
    }
    return { mean, stddev: Math.sqrt(squares / this.count) };
  }

  /** HDR's median-equivalent value of slot i: its lowest value plus half its width. */
  private medianInIndex(i: number): number {
    const bucket = Math.max(0, (i >> this.halfMag) - 1);
    return this.valueFromIndex(i) + Math.floor(2 ** bucket / 2);
  }

  /** Short live stats in ms (percentiles as the highest value of their slot, never above the max). */
  windowStats(): WindowLatency | null {
    if (this.count === 0) return null;
    const targets = [0.5, 0.9, 0.99].map((p) => Math.max(1, Math.ceil(p * this.count)));
    const out = [0, 0, 0];
    let seen = 0;
    let t = 0;
    const counts = this.counts;
    for (let i = 0; i < counts.length && t < 3; i++) {
      seen += counts[i]!;
      while (t < 3 && seen >= targets[t]!) out[t++] = Math.min(this.highestInIndex(i), this.max);
    }
    return { mean: this.sum / this.count / 1000, p50: out[0]! / 1000, p90: out[1]! / 1000, p99: out[2]! / 1000, max: this.max / 1000 };
  }
}

export function newHdr(digits: 2 | 3 = 3): Histogram {
  return newJsHistogram(HIGHEST_US, digits);
}

/**
 * LatencyStats in ms from an HDR histogram in µs; exactMaxUs (when known) is the true maximum, and
 * momentsUs (FastHistogram.moments, the same figures) saves walking the histogram for mean and deviation.
 */
export function latencyStats(h: Histogram, exactMaxUs?: number, momentsUs?: { mean: number; stddev: number }): LatencyStats {
  const n = h.totalCount;
  const at = (p: number): number => (n === 0 ? 0 : h.getValueAtPercentile(p) / 1000);
  return clampPercentiles({
    count: n,
    mean: n === 0 ? 0 : (momentsUs?.mean ?? h.mean) / 1000,
    min: n === 0 ? 0 : h.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : h.minNonZeroValue / 1000,
    max: n === 0 ? 0 : (exactMaxUs ?? h.maxValue) / 1000,
    stddev: n === 0 ? 0 : (momentsUs?.stddev ?? h.stdDeviation) / 1000,
    p50: at(50),
    p66: at(66),
    p75: at(75),
    p80: at(80),
    p90: at(90),
    p95: at(95),
    p98: at(98),
    p99: at(99),
    p999: at(99.9),
  });
}
