import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { HIGHEST_US, newHdr } from './fast-histogram.js';
import { encodeHdr } from './hdr.js';

// hdr.ts takes hdr-histogram-js's histogram from its own files and writes its compressed encoding
// again on node:zlib (the worker's start-up, issue 42): what it makes must be what the package's
// index makes, byte for byte, since stored runs, exports and Compare decode it with the index.

/** The same values recorded into ours and into the index's build, encoded by each. */
function bothEncodings(digits: 2 | 3, values: readonly (readonly [number, number])[]): [string, string, Histogram] {
  const ours = newHdr(digits);
  const index = build({ useWebAssembly: false, bitBucketSize: 32, autoResize: false, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: digits });
  for (const [value, count] of values) {
    ours.recordValueWithCount(value, count);
    index.recordValueWithCount(value, count);
  }
  return [encodeHdr(ours), encodeIntoCompressedBase64(index), index];
}

/** a small seeded generator (mulberry32), so a failure replays */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the worker’s HDR histograms and their encoding', () => {
  it.each([2, 3] as const)('a few values at %i digits, the hour bound among them: the same bytes as the index, decoded back to the same counts', (digits) => {
    const [ours, index, histogram] = bothEncodings(digits, [[1, 3], [999, 1], [12_345, 7], [2_000_000, 2], [HIGHEST_US, 1]]);
    expect(ours).toBe(index);
    const decoded = decodeFromCompressedBase64(ours);
    expect([decoded.totalCount, decoded.getValueAtPercentile(50), decoded.getValueAtPercentile(99)]).toEqual([14, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99)]);
  });

  it('an empty histogram, one value, counts of billions (5-byte words) and long runs of zeros: the same bytes as the index', () => {
    expect(bothEncodings(3, [])[0]).toBe(bothEncodings(3, [])[1]);
    for (const values of [[[1, 1]], [[7, 3_000_000_000], [7_000_000, 40_000_000_000]], [[1, 1], [HIGHEST_US - 1, 1]]] as const) {
      const [ours, index] = bothEncodings(3, values);
      expect(ours).toBe(index);
    }
  });

  it('200 seeded random histograms of up to 2,000 values across nine decades: the same bytes as the index', () => {
    const random = seeded(42);
    for (let n = 0; n < 200; n++) {
      const values = Array.from({ length: 1 + Math.floor(random() * 2000) }, () => [Math.max(1, Math.floor(10 ** (random() * 9.5))), 1 + Math.floor(random() * 1000)] as const);
      const [ours, index] = bothEncodings(n % 2 === 0 ? 3 : 2, values);
      expect(ours, `histogram ${n}`).toBe(index);
    }
  });

  it('a histogram it did not make: refused with one line, not encoded as something else', () => {
    expect(() => encodeHdr({} as never)).toThrow('encodeHdr: not a histogram newJsHistogram made');
  });
});
