import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitUsl, UslFitError, uslThroughput, type UslParams } from './usl.js';

const CONCURRENCIES = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64];

/** X at each concurrency with multiplicative noise of at most ±noise, from a seeded sequence */
function synthetic(p: UslParams, noise: number, seed = 1) {
  let s = seed;
  const next = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
  return CONCURRENCIES.map((n) => ({ n, x: uslThroughput(p, n) * (1 + noise * next()) }));
}

describe('the Universal Scalability Law fit', () => {
  it('recovers known parameters exactly from noiseless points', () => {
    const truth = { lambda: 1000, sigma: 0.05, kappa: 0.001 };
    const fit = fitUsl(synthetic(truth, 0));
    expect(fit.lambda).toBeCloseTo(1000, 0);
    expect(fit.sigma).toBeCloseTo(0.05, 4);
    expect(fit.kappa).toBeCloseTo(0.001, 6);
    expect(fit.peakN).toBeCloseTo(Math.sqrt(0.95 / 0.001), 2);
    expect(fit.r2).toBeCloseTo(1, 6);
  });

  // Stated error: with ±2 % noise on every point, σ within 0.02 absolute, κ within 35 %, the peak's
  // concurrency within 20 % and its throughput within 5 %; the 95 % interval brackets the estimate.
  it('recovers known parameters within the stated error from noisy points, with an interval around the estimate', () => {
    fc.assert(
      fc.property(
        fc.record({ sigma: fc.double({ min: 0.01, max: 0.2, noNaN: true }), kappa: fc.double({ min: 0.0003, max: 0.003, noNaN: true }), seed: fc.integer({ min: 1, max: 1e6 }) }),
        ({ sigma, kappa, seed }) => {
          const truth = { lambda: 500, sigma, kappa };
          const fit = fitUsl(synthetic(truth, 0.02, seed), 100);
          const peakN = Math.sqrt((1 - sigma) / kappa);
          expect(Math.abs(fit.sigma - sigma)).toBeLessThan(0.02);
          expect(Math.abs(fit.kappa - kappa) / kappa).toBeLessThan(0.35);
          expect(Math.abs(fit.peakN - peakN) / peakN).toBeLessThan(0.2);
          expect(Math.abs(fit.peakX - uslThroughput(truth, peakN)) / uslThroughput(truth, peakN)).toBeLessThan(0.05);
          expect(fit.interval.peakN[0]).toBeLessThanOrEqual(fit.peakN);
          expect(fit.interval.peakN[1]).toBeGreaterThanOrEqual(fit.peakN);
        },
      ),
      { numRuns: 25, seed: 17 },
    );
  });

  it('has no retrograde peak for linear or purely contended scaling (κ = 0)', () => {
    const linear = fitUsl(CONCURRENCIES.map((n) => ({ n, x: 100 * n })));
    expect(linear.sigma).toBeCloseTo(0, 6);
    expect(linear.kappa).toBeCloseTo(0, 9);
    expect(linear.peakN).toBe(Infinity);
    const amdahl = fitUsl(synthetic({ lambda: 100, sigma: 0.1, kappa: 0 }, 0));
    expect(amdahl.sigma).toBeCloseTo(0.1, 4);
    expect(amdahl.peakX).toBeCloseTo(1000, 0);
  });

  it('gives the same interval for the same points (a seeded bootstrap)', () => {
    const pts = synthetic({ lambda: 800, sigma: 0.08, kappa: 0.002 }, 0.03, 9);
    expect(fitUsl(pts).interval).toEqual(fitUsl(pts).interval);
  });

  it('refuses fewer than three concurrencies with one line saying what is missing', () => {
    expect(() => fitUsl([{ n: 1, x: 10 }, { n: 2, x: 19 }, { n: 2, x: 0 }])).toThrow(UslFitError);
    expect(() => fitUsl([{ n: 1, x: 10 }, { n: 2, x: 19 }])).toThrow(/3 or more concurrencies; got 2/);
  });
});
