import { describe, expect, it } from 'vitest';
import type { RatioInterval } from '../../contract/compare';
import { intervalText, ratioClass } from './ratio-colour';

// The Compare view colours a ratio only when its interval excludes 1, and says the interval on hover.

const interval = (ratio: number, low: number, high: number): RatioInterval => ({ pairKey: 'single / steady', metric: 'total.p90', run: 1, ratio, low, high, resamples: 400 });
const latency = { higherIsBetter: false };
const throughput = { higherIsBetter: true };

describe('ratio colour', () => {
  it('leaves a ratio plain when its interval holds 1, however far the ratio itself is from 1', () => {
    expect(ratioClass(latency, interval(2.89, 0.8, 4.1))).toBe('');
    expect(ratioClass(throughput, interval(0.4, 0.3, 1.0))).toBe('');
    expect(intervalText(interval(2.89, 0.8, 4.1))).toBe('95 % interval 0.800 – 4.100 (bootstrap, 400 resamples): within the noise');
  });

  it('colours by direction when the interval excludes 1', () => {
    expect(ratioClass(latency, interval(3, 2.5, 3.4))).toBe('worse');
    expect(ratioClass(latency, interval(0.5, 0.4, 0.6))).toBe('better');
    expect(ratioClass(throughput, interval(1.5, 1.2, 1.8))).toBe('better');
    expect(intervalText(interval(3, 2.5, 3.4))).toMatch(/beyond the noise$/);
  });

  it('never colours a ratio without an interval (too few rows, or a figure like max or the count)', () => {
    expect(ratioClass(latency, undefined)).toBe('');
    expect(intervalText(undefined)).toMatch(/^no interval/);
  });
});
