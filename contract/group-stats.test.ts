import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanInterval, t95 } from './group-stats.js';

describe('a figure across repeated runs', () => {
  it('mean and t-interval of known values', () => {
    // 10, 12, 14: mean 12, sd 2, half-width t(2) * 2 / sqrt(3) = 4.303 * 1.1547 = 4.969
    const m = meanInterval([10, 12, 14]);
    expect(m.mean).toBe(12);
    expect(m.low!).toBeCloseTo(12 - 4.969, 2);
    expect(m.high!).toBeCloseTo(12 + 4.969, 2);
    expect(meanInterval([5])).toEqual({ n: 1, mean: 5, low: null, high: null });
    // a wide interval of a time stops at 0
    expect(meanInterval([1, 20, 2], 0).low).toBe(0);
    expect(t95(1)).toBe(12.706);
    expect(t95(100)).toBe(1.96);
  });

  it('the interval holds the mean; identical runs give a zero-width interval; more runs of the same spread narrow it', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 2, maxLength: 40 }), (xs) => {
        const m = meanInterval(xs);
        expect(m.low!).toBeLessThanOrEqual(m.mean + 1e-6 * Math.abs(m.mean) + 1e-9);
        expect(m.high!).toBeGreaterThanOrEqual(m.mean - 1e-6 * Math.abs(m.mean) - 1e-9);
        const same = meanInterval(xs.map(() => xs[0]!));
        expect(same.high! - same.low!).toBeCloseTo(0, 6);
        const twice = meanInterval([...xs, ...xs]);
        // narrower, or zero-width already (all values equal): checked on every input
        if (m.high! - m.low! > 1e-9) expect(twice.high! - twice.low!).toBeLessThan(m.high! - m.low!);
        else expect(twice.high! - twice.low!).toBeLessThanOrEqual(1e-9);
      }),
    );
  });
});
