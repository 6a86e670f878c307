import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeInline } from './terminal-safe.js';

// Property tests of the one function every CLI text goes through before a terminal: no control
// character, C1 code or bidi override survives (escaped as \uXXXX, visible), and JSON stays valid JSON
// meaning the same strings.

const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// strings rich in the characters that matter, among ordinary ones
const hostile = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)), fc.constantFrom('\u061c', '\u200e', '\u200f', '\u2028', '\u2029', '\u202a', '\u202e', '\u2066', '\u2069', '\\', '"', 'é', '😀')) });

describe('terminalSafe', () => {
  it('leaves no character a terminal acts on, keeps line feeds and tabs, and is idempotent', () => {
    fc.assert(fc.property(hostile, (s) => {
      const safe = terminalSafe(s);
      expect(safe).not.toMatch(RAW);
      expect(safe.split('\n').length).toBe(s.split('\n').length);
      expect(terminalSafe(safe)).toBe(safe);
      const inline = terminalSafeInline(s);
      expect(inline).not.toMatch(/[\n\t]/);
      expect(inline).not.toMatch(RAW);
    }), { seed: 23, numRuns: 2000 });
  });

  it('keeps JSON valid and meaning the same strings', () => {
    fc.assert(fc.property(hostile, (s) => {
      expect(JSON.parse(terminalSafe(JSON.stringify({ s }, null, 2)))).toEqual({ s });
    }), { seed: 23, numRuns: 2000 });
  });

  it('writes each as \\uXXXX', () => {
    expect(terminalSafe('a\x1b]0;t\x07\x9b2J\u202eb\tc\n')).toBe('a\\u001b]0;t\\u0007\\u009b2J\\u202eb\tc\n');
  });
});
