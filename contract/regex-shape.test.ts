import { describe, expect, it } from 'vitest';
import { extractRegex } from './extract.js';
import { backtrackRisk, MAX_QUANTIFIERS } from './regex-shape.js';
import { MAX_EXTRACT_PATTERN_CHARS } from './request-limits.js';

// An extract's pattern is refused when its shape could backtrack badly or no linear-time engine runs
// it (contract/regex-shape.ts), before any run: nested and alternating loops, too many quantifiers,
// backreferences, lookarounds, counts above 16, patterns over MAX_EXTRACT_PATTERN_CHARS. The
// patterns people write to pull a token out of a body still pass. engine/driver/requests/linear-regexp.test.ts
// holds what passes against V8's linear engine.

const refused = (pattern: string): string => {
  const reason = extractRegex(pattern);
  if (typeof reason !== 'string') throw new Error(`${pattern} was accepted`);
  return reason;
};

describe('patterns that could backtrack for a very long time', () => {
  it.each([
    ['^((a+)+)$', 'a quantifier'],
    ['(a*)*', 'a quantifier'],
    ['(a+){2,}', 'a quantifier'],
    ['(?:a+)+b', 'a quantifier'],
    ['((a+))+', 'a quantifier'],
    ['(a?)+', 'a quantifier'],
    ['((ab)?c)*', 'a quantifier'],
    ['(\\w+\\s?)*$', 'a quantifier'],
    ['(a|a)+', 'an alternation'],
    ['(a|aa)*b', 'an alternation'],
    ['((a|b)c)+', 'an alternation'],
    ['(?<t>x|y){2,5}', 'an alternation'],
  ])('%s: a loop over a group holding %s is refused', (pattern, what) => {
    expect(refused(pattern)).toContain(`repeats a group holding ${what}`);
  });

  it('more quantifiers than the limit: refused; the limit itself passes', () => {
    expect(refused(`(${'a*'.repeat(MAX_QUANTIFIERS + 1)})`)).toMatch(/^more than 25 quantifiers/);
    expect(extractRegex(`(${'a*'.repeat(MAX_QUANTIFIERS)})`)).toBeInstanceOf(RegExp);
  });

  it('backreferences and lookarounds: refused, no linear-time engine runs them', () => {
    expect(refused('(a+)\\1')).toBe("'\\1': backreferences cannot run in linear time");
    expect(refused('(?<q>["\'])(.*)\\k<q>')).toBe("'\\k': named backreferences cannot run in linear time");
    expect(refused('(\\w+)(?=;)')).toBe("'(?=': lookarounds cannot run in linear time");
    expect(refused('(?!x)(\\w)')).toBe("'(?!': lookarounds cannot run in linear time");
    expect(refused('(?<=id=)(\\d+)')).toBe("'(?<=': lookarounds cannot run in linear time");
    expect(refused('(?<!x)(\\d+)')).toBe("'(?<!': lookarounds cannot run in linear time");
  });

  it('a counted repeat above 16: refused; 16 passes', () => {
    expect(refused('([0-9a-f]{32})')).toMatch(/^'\{32\}': a counted repeat above \{16\} cannot run in linear time/);
    expect(refused('(a{16,})')).toMatch(/^'\{16,\}'/);
    expect(refused('(a{2,17})')).toMatch(/^'\{2,17\}'/);
    expect(extractRegex('(a{16})')).toBeInstanceOf(RegExp);
    expect(extractRegex('(a{15,})')).toBeInstanceOf(RegExp);
  });

  it('a pattern longer than the bound: refused before it is compiled', () => {
    expect(refused(`(${'a'.repeat(MAX_EXTRACT_PATTERN_CHARS)})`)).toMatch(/^a pattern of 514 characters; at most 512/);
  });
});

describe('patterns that pull a value out of a body', () => {
  it.each([
    '"token":"([^"]+)"',
    'csrf=(\\w+)',
    '(\\w+)=',
    'id=(\\d+)',
    '<input name="csrf" value="([^"]*)"',
    '^(?:HTTP|http)/(\\d\\.\\d)',
    '(?<session>[A-Za-z0-9._-]+);',
    '(a|b)',
    '(a|b)?c',
    '(\\d+)?x',
    '(?:ab)+(c)',
    'x{2}(y{3,5})z*?',
    '[(+*?{|)](\\w)',
    'a{(\\d)',
    '\\(([^)]*)\\)\\{\\}',
    '([\\]a-z]+)',
    '([^]*)',
  ])('%s: passes', (pattern) => {
    expect(backtrackRisk(pattern)).toBeNull();
    expect(extractRegex(pattern)).toBeInstanceOf(RegExp);
  });
});
