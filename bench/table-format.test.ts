import { describe, expect, it } from 'vitest';
import { mib, target } from './table-format.mjs';

// The bench's verdicts are computed from the figure measured in that run: a figure on the wrong side
// of its target reads "misses", and a figure that is missing reads "not measured", never "meets".

describe('target', () => {
  it('a figure on each side of each comparison, and on the limit: meets only where the comparison holds', () => {
    expect(target(149.9, '<', 150, 'ms')).toBe('< 150 ms: meets');
    expect(target(150, '<', 150, 'ms')).toBe('< 150 ms: **misses**');
    expect(target(16, '<=', 16, 'ms')).toBe('≤ 16 ms: meets');
    expect(target(16.1, '<=', 16, 'ms')).toBe('≤ 16 ms: **misses**');
    expect(target(0.8, '>=', 0.8, '×')).toBe('≥ 0.8×: meets');
    expect(target(0.79, '>=', 0.8, '×')).toBe('≥ 0.8×: **misses**');
    expect(target(1.51, '>', 1.5, '×')).toBe('> 1.5×: meets');
    expect(target(0.2, '<', 0.5, '%')).toBe('< 0.5%: meets');
  });

  it('a figure that was not measured (null, undefined, NaN, a peer not installed): "not measured", never "meets"', () => {
    // `null < 150` is true in JavaScript: the verdict must not be the comparison alone
    for (const missing of [null, undefined, NaN, Infinity]) {
      expect(target(missing, '<', 150, 'ms')).toBe('< 150 ms: not measured');
      expect(target(missing, '>=', 0.8, '×')).toBe('≥ 0.8×: not measured');
    }
  });

  it('an unknown comparison: one clear error, not a verdict', () => {
    expect(() => target(1, '=<' as never, 2)).toThrow("target: unknown comparison '=<'");
  });
});

describe('mib', () => {
  it('a peak resident set in MiB: labelled MiB, and n/a when not measured', () => {
    expect(mib(120.4)).toBe('120 MiB');
    expect(mib(7.25)).toBe('7.3 MiB');
    expect(mib(null)).toBe('n/a');
  });
});
