import { describe, expect, it } from 'vitest';
import { enUsNumber, fmtNum } from './number-text.js';

// enUsNumber stands in for toLocaleString('en-US') so a verb's first thousands separator does not
// load ICU (issue 42's start-up target): it must print every number exactly as ICU does.

/** A seeded generator (mulberry32): the same numbers on every run, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Numbers of every magnitude, ties at every place, carries (9.995), negatives, zeros and the extremes. */
function samples(): number[] {
  const random = seeded(42);
  const xs = [0, -0, 1, -1, 0.5, 1.5, 2.5, -2.5, 1.005, 0.125, 0.0005, 9.995, 99.95, 999.5, 999_999.5, 0.96, 0.0096, 1e21, 1.5e21, 1e-7, -1e-7, 123_456_789.987, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE, -0.0001, 1e300, 5e-324];
  for (let i = 0; i < 1500; i++) {
    const magnitude = 10 ** Math.floor(random() * 24 - 8);
    const sign = random() < 0.2 ? -1 : 1;
    const x = sign * random() * magnitude;
    xs.push(x);
    // ties at 0-3 decimals, and integers
    xs.push(sign * (Math.floor(random() * 1e6) + 0.5) / 10 ** Math.floor(random() * 4), Math.round(x));
  }
  return xs;
}

describe('enUsNumber', () => {
  it("numbers of every magnitude, ties, carries and signs, at 0-4 decimals: the same text as toLocaleString('en-US')", () => {
    const wrong: string[] = [];
    for (const x of samples()) {
      for (const [min, max] of [[0, 0], [0, 1], [0, 2], [0, 3], [1, 1], [2, 2], [3, 3], [1, 3], [0, 4], [4, 4]] as const) {
        const icu = x.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
        const ours = enUsNumber(x, min, max);
        if (ours !== icu) wrong.push(`${x} (${min}-${max}): ${ours} vs ${icu}`);
      }
      // no options: ICU's default of 0 to 3 decimals
      if (enUsNumber(x) !== x.toLocaleString('en-US')) wrong.push(`${x} (default): ${enUsNumber(x)} vs ${x.toLocaleString('en-US')}`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('NaN and the infinities: the words ICU uses', () => {
    for (const x of [NaN, Infinity, -Infinity]) expect(enUsNumber(x)).toBe(x.toLocaleString('en-US'));
  });

  it('fmtNum of a figure with decimals: grouped and padded as the tables print it', () => {
    expect(fmtNum(1234567.891, 2)).toBe('1,234,567.89');
    expect(fmtNum(1.005, 2)).toBe('1.01');
    expect(fmtNum(1000, 1)).toBe('1,000.0');
    expect(fmtNum(null)).toBe('-');
  });
});
