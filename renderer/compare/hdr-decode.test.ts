import { describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { decodeHistogram, mergeHistograms, percentileCurve, valueAtPercentile } from './hdr-decode';

// The renderer's decoder against the library the engine encodes with: same percentiles, exactly.
function encoded(values: readonly number[]): { base64: string; histogram: hdr.Histogram } {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false });
  for (const v of values) histogram.recordValue(v);
  return { base64: hdr.encodeIntoCompressedBase64(histogram), histogram };
}

describe('decodeHistogram', () => {
  it('gives the percentiles hdr-histogram-js gives, across six decades', async () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const values = Array.from({ length: 20_000 }, () => Math.round(10 ** (1 + rand() * 6)));
    const { base64, histogram } = encoded(values);
    const decoded = await decodeHistogram(base64);
    expect(decoded.totalCount).toBe(values.length);
    for (const q of [0.1, 1, 25, 50, 66, 90, 99, 99.9, 99.99, 100]) {
      expect(valueAtPercentile(decoded, q), `p${q}`).toBe(histogram.getValueAtPercentile(q));
    }
  });

  it('merges by value and draws a curve ending at the maximum', async () => {
    const a = await decodeHistogram(encoded([1000, 2000, 3000]).base64);
    const b = await decodeHistogram(encoded([1000, 50_000]).base64);
    const merged = mergeHistograms([a, b]);
    expect(merged.totalCount).toBe(5);
    const curve = percentileCurve(merged);
    expect(curve.at(-1)?.[1]).toBeCloseTo(50.0, 0);
    expect(curve[0]).toEqual([0, 1]);
  });

  it('rejects what is not a histogram', async () => {
    await expect(decodeHistogram(btoa('not a histogram'))).rejects.toThrow(/HdrHistogram/);
  });
});
