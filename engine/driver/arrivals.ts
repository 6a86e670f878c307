// Deterministic randomness and the open-loop arrival process.

import { Prng } from '../../contract/prng.js';

// the driver's seeded draws use the one mulberry32 (contract/prng.ts) Compare's bootstrap uses too
export { Prng };

/** Picks a request template by weight from a precomputed cumulative table. */
export class TemplatePicker {
  private readonly cumulative: Float64Array;
  private readonly total: number;
  constructor(
    weights: readonly number[],
    private readonly prng: Prng,
  ) {
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => (this.cumulative[i] = sum += w));
    this.total = sum;
  }
  pick(): number {
    const n = this.cumulative.length;
    if (n === 1) return 0;
    const x = this.prng.next() * this.total;
    for (let i = 0; i < n - 1; i++) if (x < this.cumulative[i]!) return i;
    return n - 1;
  }
}

/**
 * Arrival times of an open-loop phase, in µs from the phase start, in order; Infinity once past the
 * duration. The rate is R1, or a linear ramp R1 -> R2 over the duration D, whose cumulative count is
 *   Λ(t) = R1·t + (R2 − R1)·t² / (2D)
 * Arrival k happens when Λ(t) reaches L_k: L_k = k (uniform: 0, 1, 2, ...) or the running sum of
 * Exp(1) draws (poisson). Inverting the quadratic (in the form stable for R2 = R1):
 *   t = 2L / (R1 + sqrt(R1² + 2(R2 − R1)·L / D))
 */
export class ArrivalProcess {
  private level = 0;
  private readonly r1: number;
  private readonly slope: number;
  private readonly durationS: number;

  constructor(
    rate: number,
    rampTo: number | undefined,
    durationMs: number,
    private readonly prng: Prng | null,
  ) {
    this.r1 = rate;
    this.durationS = durationMs / 1000;
    this.slope = rampTo === undefined ? 0 : (2 * (rampTo - rate)) / this.durationS;
    if (prng) this.level = this.exp();
  }

  private exp(): number {
    return -Math.log(1 - this.prng!.next());
  }

  /** The next arrival time in µs from the phase start, or Infinity when the phase has no more. */
  next(): number {
    const disc = this.r1 * this.r1 + this.slope * this.level;
    if (disc < 0) return Infinity;
    const t = (2 * this.level) / (this.r1 + Math.sqrt(disc));
    if (!(t < this.durationS)) return Infinity;
    this.level += this.prng ? this.exp() : 1;
    return t * 1e6;
  }
}
