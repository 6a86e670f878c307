// Percentile labels and curves shared by every place that draws HDR percentile curves: the screen
// (histograms decoded in the browser), and the reports (decoded in Node). Both give the curve the
// same points from the same histogram.

/** The axis label of x = 1 / (1 - q): 2 -> 50%, 10 -> 90%, 100 -> 99%. */
export function percentLabel(x: number): string {
  const q = 100 * (1 - 1 / x);
  if (q <= 0) return '0%';
  return `${Number(q.toPrecision(6))}%`;
}

/**
 * Points for a percentile curve in ms: 24 steps per decade of 1/(1-q), up to where the count runs
 * out (beyond 1/(1-q) = count every percentile is the maximum), then the maximum itself.
 * `valueAt` answers a percentile (0..100) in µs, as HdrHistogram's getValueAtPercentile does.
 */
export function curvePoints(totalCount: number, valueAt: (percentile: number) => number, maxUs: number, maxX = 10_000): [number, number][] {
  const out: [number, number][] = [];
  if (totalCount === 0) return out;
  const limit = Math.min(maxX, Math.max(totalCount, 2));
  for (let k = 0; ; k++) {
    const x = 10 ** (k / 24);
    if (x > limit) break;
    const q = 100 * (1 - 1 / x);
    out.push([q, valueAt(q) / 1000]);
  }
  out.push([100 * (1 - 1 / limit), maxUs / 1000]);
  return out;
}
