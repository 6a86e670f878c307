import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { HIGHEST_US, newHdr } from './fast-histogram.js';
import { encodeHdr } from './hdr.js';

// hdr.ts takes hdr-histogram-js's histogram and encoding from their own files (the worker's start-up,
// issue 42): what it makes must be what the package's index makes, byte for byte, since stored
// runs, exports and Compare decode it with the index.

describe('the worker’s HDR histograms from their own files', () => {
  it.each([2, 3] as const)('recorded alike at %i digits: encoded to the same bytes as the index builds and encodes, and decoded back to the same counts', (digits) => {
    const ours = newHdr(digits);
    const index = build({ useWebAssembly: false, bitBucketSize: 32, autoResize: false, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: digits });
    for (const [value, count] of [[1, 3], [999, 1], [12_345, 7], [2_000_000, 2], [HIGHEST_US, 1]] as const) {
      ours.recordValueWithCount(value, count);
      index.recordValueWithCount(value, count);
    }
    const encoded = encodeHdr(ours);
    expect(encoded).toBe(encodeIntoCompressedBase64(index));
    const decoded = decodeFromCompressedBase64(encoded);
    expect([decoded.totalCount, decoded.getValueAtPercentile(50), decoded.getValueAtPercentile(99)]).toEqual([14, index.getValueAtPercentile(50), index.getValueAtPercentile(99)]);
  });

  it('a histogram it did not make: refused with one line, not encoded as something else', () => {
    expect(() => encodeHdr({} as never)).toThrow('encodeHdr: not a histogram newJsHistogram made');
  });
});
