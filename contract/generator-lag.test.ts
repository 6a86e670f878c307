import { describe, expect, it } from 'vitest';
import { generatorTailNote } from './generator-lag.js';

const stats = (p99: number) => ({ count: 100, stddev: 0, mean: p99 / 4, min: 0, p50: p99 / 5, p66: p99 / 4, p75: p99 / 3, p80: p99 / 3, p90: p99 / 2, p95: p99 / 1.5, p98: p99 / 1.1, p99, p999: p99, max: p99 * 2 });

describe('generatorTailNote', () => {
  it("names the generator when its lag is most of the tail", () => {
    expect(generatorTailNote({ total: stats(3.5), lag: stats(3) })).toMatch(/own lag p99 is 3\.00 ms of the 3\.50 ms total p99 \(86 %\): this tail is Loadscope's, not the server's/);
  });
  it('says nothing when the tail is the server\'s or too small to matter', () => {
    expect(generatorTailNote({ total: stats(40), lag: stats(3) })).toBeNull();
    expect(generatorTailNote({ total: stats(0.4), lag: stats(0.3) })).toBeNull();
  });
});
