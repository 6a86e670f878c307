// Seeded randomness where the same seed must give the same numbers everywhere (bootstrap intervals,
// the USL fit's restarts, test data): mulberry32, small and fast; one definition for all of them.

/** mulberry32: next() is uniform in [0, 1), the same sequence for the same seed. */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** The same sequence as a function: each call the next number. */
export function seededRandom(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}
