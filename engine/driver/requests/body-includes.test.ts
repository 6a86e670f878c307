import { describe, expect, it } from 'vitest';
import { Prng } from '../arrivals.js';
import { BodyIncludes } from './body-includes.js';

// The streaming matcher of expect.bodyIncludes (engine/driver/requests/body-includes.ts) against the whole
// body searched at once: the same answer for every way a body can be cut into chunks, a needle
// split over any number of them included, while it keeps at most a needle's length.

/** The matcher's answer for `body` fed as `cuts` splits it. */
function streamed(needle: Buffer, body: Buffer, cuts: number[]): boolean {
  const m = new BodyIncludes();
  m.begin(needle);
  let from = 0;
  for (const to of [...cuts, body.length]) {
    m.feed(body.subarray(from, to));
    from = to;
  }
  return m.found;
}

describe('expect.bodyIncludes while the body streams', () => {
  it('every cut of small bodies over a two-letter alphabet: the same answer as the whole body', () => {
    const prng = new Prng(35);
    const letter = () => (prng.next() < 0.5 ? 'a' : 'b');
    for (let round = 0; round < 3000; round++) {
      const needle = Buffer.from(Array.from({ length: 1 + Math.floor(prng.next() * 5) }, letter).join(''));
      const body = Buffer.from(Array.from({ length: Math.floor(prng.next() * 24) }, letter).join(''));
      // random cuts, empty chunks included
      const cuts = Array.from({ length: Math.floor(prng.next() * 8) }, () => Math.floor(prng.next() * (body.length + 1))).sort((x, y) => x - y);
      expect(streamed(needle, body, cuts), `${needle.toString()} in ${body.toString()} cut at ${cuts.join(',')}`).toBe(body.includes(needle));
    }
  });

  it('a needle split byte by byte over its chunks: found; one byte short of it: not found', () => {
    const needle = Buffer.from('needle-in-the-stream');
    const body = Buffer.from(`${'x'.repeat(100)}needle-in-the-strea${'x'.repeat(50)}needle-in-the-stream`);
    const everyByte = Array.from({ length: body.length - 1 }, (_, i) => i + 1);
    expect(streamed(needle, body, everyByte)).toBe(true);
    expect(streamed(needle, body.subarray(0, body.length - 1), everyByte.slice(0, -1))).toBe(false);
  });

  it('the matcher reused for a new response: nothing kept from the last', () => {
    const m = new BodyIncludes();
    m.begin(Buffer.from('abc'));
    m.feed(Buffer.from('xxab'));
    expect(m.found).toBe(false);
    m.begin(Buffer.from('abc'));
    m.feed(Buffer.from('c'));
    expect(m.found).toBe(false);
    m.begin(null);
    expect(m.found).toBe(true);
  });
});
