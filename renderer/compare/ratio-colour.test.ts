import { describe, expect, it } from 'vitest';
import { judgeInterval, type RatioInterval } from '../../contract/compare';
import { intervalText, ratioClass } from './ratio-colour';

// The Compare view colours a ratio only when its interval excludes 1, and says the interval on hover;
// one too wide to judge (the too-wide rule, contract/compare.ts) says so and why.

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
    expect(intervalText(undefined)).toMatch(/^too short to judge: .*so no interval$/);
  });

  it('an interval that holds 1 and spans more than x10 is "too variable to judge", uncoloured, its drift explained instead of its ends', () => {
    const wide: RatioInterval = { ...interval(14, 0.053, 390), basis: 'whole phase', drift: { a: 12, b: 40 }, blocks: { a: 40, b: 40 } };
    expect(ratioClass(latency, wide)).toBe('');
    expect(judgeInterval(wide)).toBe('too variable');
    expect(intervalText(wide)).toMatch(/^too variable to judge: its 95 % interval spans x7358 \(over x10\).* widened x[\d.]+ by each run's drift within itself \(A x12\.0, this run x40\.0, first half of the phase against its second\)/);
    expect(intervalText(wide)).not.toContain('390');
    // the same span from a short phase is too short; nine-fold is still judged (within the noise)
    expect(judgeInterval({ ...wide, blocks: { a: 6, b: 40 } })).toBe('too short');
    expect(judgeInterval(interval(1, 0.34, 3))).toBe('within');
    // an interval that excludes 1 is judged however wide: its direction is known
    expect(judgeInterval(interval(20, 1.5, 60))).toBe('beyond');
    expect(ratioClass(latency, interval(20, 1.5, 60))).toBe('worse');
  });
});
