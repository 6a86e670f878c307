import { afterEach, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { extractRegex } from '../../../contract/extract.js';
import { MAX_EXTRACT_BODY_BYTES } from '../../../contract/request-limits.js';
import { backtrackRisk } from '../../../contract/regex-shape.js';
import { Prng } from '../arrivals.js';
import { linearRegExp } from './linear-regexp.js';
import { startBigBodyServer, type BigBodyServer } from '../test-support/big-body-server.js';
import { closed, collect, req } from '../test-support/phases.js';

// An extract's pattern runs in V8's linear-time engine (engine/driver/requests/linear-regexp.ts), and every
// pattern contract/regex-shape.ts lets through is one that engine runs (a differential test over
// generated patterns), so a pattern that passed validation never meets the backtracking engine.
// A pattern the shape check refuses is never run by the driver, even when handed to it unchecked.

let server: BigBodyServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A random pattern over the constructs that matter to both checks: loops, counts, groups, alternation, backreferences, lookarounds. */
function randomPattern(prng: Prng): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(prng.next() * xs.length)]!;
  const atoms = ['a', 'b', '\\w', '\\d', '.', '[ab]', '[^"]', '\\b', '^', '$', '\\1', '{', '\\k<n>'];
  const quantifiers = ['', '', '', '*', '+', '?', '{2}', '{0,3}', '{1,}', '{15,}', '{16}', '{17}', '{4,16}', '*?', '+?', '{2}?'];
  const groups = ['(', '(?:', '(?<n>', '(?=', '(?!', '(?<=', '(?<!'];
  const node = (depth: number): string => {
    let out = '';
    const n = 1 + Math.floor(prng.next() * 3);
    for (let i = 0; i < n; i++) {
      if (depth < 3 && prng.next() < 0.35) out += `${pick(groups)}${node(depth + 1)}${prng.next() < 0.3 ? `|${node(depth + 1)}` : ''})`;
      else out += pick(atoms);
      out += pick(quantifiers);
    }
    return out;
  };
  // group 1 first, so a \\1 after it is a real backreference (inside its own group V8 reads it as empty)
  return `(${node(0)})${node(1)}`;
}

const compiles = (pattern: string, flags: string): boolean => {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
};

describe("the driver's linear-time engine", () => {
  it('an extract pattern compiled by the driver: in the linear engine, capturing as before', () => {
    expect(linearRegExp('csrf=(\\w+)').flags).toBe('l');
    const re = extractRegex('"token":"([^"]+)"', linearRegExp) as RegExp;
    expect(re.flags).toBe('l');
    expect(re.exec('{"token":"abc","x":"y"}')?.[1]).toBe('abc');
  });

  it('generated patterns: every one the shape check passes runs in the linear engine', () => {
    setFlagsFromString('--enable-experimental-regexp-engine');
    const prng = new Prng(35);
    let valid = 0;
    let passed = 0;
    const escaped: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const pattern = randomPattern(prng);
      if (!compiles(pattern, '')) continue;
      valid++;
      if (backtrackRisk(pattern) !== null) continue;
      passed++;
      if (!compiles(pattern, 'l')) escaped.push(pattern);
    }
    expect(escaped).toEqual([]);
    // the generator reaches both sides of the check
    expect(valid).toBeGreaterThan(2000);
    expect(passed).toBeGreaterThan(500);
    expect(valid - passed).toBeGreaterThan(500);
  });

  it('(\\w+)= over a 1 MiB body without "=": an extract error, in linear time (the backtracking engine takes minutes)', async () => {
    server = await startBigBodyServer({ size: MAX_EXTRACT_BODY_BYTES, fill: 'w' });
    const step = req('/', { extract: { var: 'v', from: 'regex', pattern: '(\\w+)=' } });
    const { result } = await collect(server.url, [closed(1, { count: 2, flow: true, requests: [step] })]);
    expect(result.failure).toBeUndefined();
    expect(result.phases[0]!.result.errors.extract).toBe(2);
  });

  it('^((a+)+)$ handed to the driver unchecked: refused before any request, never run', async () => {
    server = await startBigBodyServer({ size: 64 * 1024, tail: '!' });
    const step = req('/', { extract: { var: 'v', from: 'regex', pattern: '^((a+)+)$' } });
    await expect(collect(server.url, [closed(1, { count: 1, flow: true, requests: [step] })])).rejects.toThrow(/repeats a group holding a quantifier/);
    expect(server.answered).toBe(0);
  });
});
