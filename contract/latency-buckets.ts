// The latency heatmap's buckets (issue 27): each stored window keeps how many of its requests' total
// times fell in each bucket, so a heatmap of time x latency draws from windows alone, however many
// requests the run had. Fixed log buckets, four per doubling (each about 19 % wide, finer than a
// heatmap's colour can show) from 0.1 ms up: 102 buckets reach an hour, the longest time measured.
// Zod-free: the driver worker fills them.

const BASE_US = 100;
const PER_DOUBLING = 4;
export const LATENCY_BUCKET_COUNT = 102;

/** A window's buckets, compactly: [bucket, count, bucket, count, ...], buckets ascending, no zero counts. */
export type LatencyBuckets = number[];

/** The bucket of a time in µs: 0 below 0.1 ms, then four per doubling. */
export function latencyBucketOf(us: number): number {
  if (!(us >= BASE_US)) return 0;
  const k = 1 + Math.floor(PER_DOUBLING * Math.log2(us / BASE_US) + 1e-9);
  return Math.min(k, LATENCY_BUCKET_COUNT - 1);
}

/** The lower edge of bucket k in ms (0 for the first). */
export function latencyBucketLowMs(k: number): number {
  return k <= 0 ? 0 : (BASE_US * 2 ** ((k - 1) / PER_DOUBLING)) / 1000;
}

/** The upper edge of bucket k in ms. */
export function latencyBucketHighMs(k: number): number {
  return latencyBucketLowMs(k + 1);
}
