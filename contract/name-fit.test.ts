import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitNames, NAME_SEP, type FitOptions } from './name-fit.js';

const fitName = (name: string, options: FitOptions): string => fitNames([name], options)[0]!;

// The one owner of shortening names to a width (issue 36: a 2x2x2 matrix's legend read
// "cluster · wo… · path /fib?n=15" four times): what every name shares goes first, what varies is
// kept, a name wraps before it is cut, and no two distinct names ever come out alike.

const MATRIX = ['cluster', 'offload'].flatMap((s) => ['1', '2'].flatMap((w) => ['15', '20'].map((n) => `${s} · workers ${w} · path /fib?n=${n}`)));
const width = (lines: string) => Math.max(...lines.split('\n').map((l) => l.length));

describe('fitting a set of names to a width', () => {
  it('names that fit: as they are', () => {
    expect(fitNames(MATRIX, { max: 60 })).toEqual(MATRIX);
    expect(fitNames([], { max: 10 })).toEqual([]);
  });

  it('a 2x2x2 matrix at 24 characters: the constant words cut, every varying value whole, all eight apart', () => {
    const fitted = fitNames(MATRIX, { max: 24 });
    expect(new Set(fitted).size).toBe(8);
    for (const f of fitted) expect(f.length, f).toBeLessThanOrEqual(24);
    // the values that tell the cells apart are all there, in every name
    fitted.forEach((f, i) => {
      const [server, workers, n] = /^(\w+) · workers (\d) · path \/fib\?n=(\d+)$/.exec(MATRIX[i]!)!.slice(1);
      expect(f).toContain(server);
      expect(f).toMatch(new RegExp(`… ${workers} ·`));
      expect(f.endsWith(`…${n}`), f).toBe(true);
    });
  });

  it('a name wider than the width, with room for two lines: wrapped at " · ", nothing cut', () => {
    const fitted = fitNames(MATRIX, { max: 24, lines: 2 });
    expect(fitted[0]).toBe('cluster · workers 1\npath /fib?n=15');
    for (const f of fitted) expect(width(f)).toBeLessThanOrEqual(24);
  });

  it('a part every name shares: dropped before a part that varies is cut', () => {
    const names = ['thread-pool · cores 1 · load', 'thread-pool · cores 2 · load'];
    expect(fitNames(names, { max: 8 })).toEqual(['cores 1', 'cores 2']);
  });

  it('a "\\n" its caller put in: a line break where there are two lines, " · " on one', () => {
    expect(fitNames(['thread-pool\ncores 1', 'thread-pool\ncores 2'], { max: 40, lines: 2 })).toEqual(['thread-pool\ncores 1', 'thread-pool\ncores 2']);
    expect(fitNames(['thread-pool\ncores 1', 'thread-pool\ncores 2'], { max: 40 })).toEqual(['thread-pool · cores 1', 'thread-pool · cores 2']);
  });

  it('names of unlike shapes (a Compare of a matrix and a plain run): cut in their middles, apart', () => {
    const names = ['A #1 thread-per-request · cores 1 · 10 req', 'B #2 thread-per-request'];
    const fitted = fitNames(names, { max: 16 });
    expect(new Set(fitted).size).toBe(2);
    for (const f of fitted) expect(f.length).toBeLessThanOrEqual(16);
    expect(fitted[0]!.startsWith('A #1')).toBe(true);
  });

  it('widths in px of a font: every name within them', () => {
    const px = (t: string) => t.length * 7;
    for (const f of fitNames(MATRIX, { max: 160, measure: px })) expect(px(f)).toBeLessThanOrEqual(160);
  });

  it('one name alone, too long: its middle cut', () => {
    expect(fitName('a-very-long-server-label-indeed', { max: 11 })).toBe('a-ver…ndeed');
  });

  it('property, any set of names at any width and lines: distinct names stay distinct, equal names fit alike, each within the width from a sensible width up', () => {
    const part = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'b', '1', '2', ' ', '=', '/', '·', '\n', 'x') });
    const name = fc.array(part, { minLength: 1, maxLength: 4 }).map((ps) => ps.join(NAME_SEP));
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 3 }), (names, max, lines) => {
        const fitted = fitNames(names, { max, lines });
        expect(fitted).toHaveLength(names.length);
        const byName = new Map<string, string>();
        names.forEach((n, i) => {
          const seen = byName.get(n);
          if (seen !== undefined) expect(fitted[i]).toBe(seen);
          byName.set(n, fitted[i]!);
        });
        expect(new Set(byName.values()).size).toBe(byName.size);
        // wide enough for a number tag and a character: every line within the width
        if (max >= `#${byName.size} x…`.length) for (const f of fitted) expect(width(f), JSON.stringify({ names, max, lines, f })).toBeLessThanOrEqual(max);
      }),
      { numRuns: 2000 },
    );
  });
});
