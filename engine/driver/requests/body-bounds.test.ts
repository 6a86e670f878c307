import { afterEach, describe, expect, it } from 'vitest';
import { MAX_EXTRACT_BODY_BYTES } from '../../../contract/request-limits.js';
import { startBigBodyServer, type BigBodyServer } from '../test-support/big-body-server.js';
import { runDriverInChild } from '../test-support/child-driver.js';
import { burst, closed, collect, req } from '../test-support/phases.js';

// What the driver keeps of a response body (contract/request-limits.ts): a hostile target answering
// 1 GiB bodies cannot grow the driver's memory. `expect.bodyIncludes` is searched while the body
// streams (engine/driver/requests/body-includes.ts), keeping only a needle's length of it; a flow's extract
// keeps at most MAX_EXTRACT_BODY_BYTES, and a body past that is the step's 'extract' error. The
// worker lives, the phase completes, and the process' peak memory grows by far less than the body
// (each 1 GiB run in a process of its own, so no earlier test's peak hides its growth).

const GiB = 1024 * 1024 * 1024;
/** Far under the 1 GiB body, far over what a streaming driver needs: holds on any machine's speed. */
const BOUNDED_GROWTH = 256 * 1024 * 1024;
/** A body takes seconds to stream on a busy machine: generous, so only a stuck driver fails. */
const SLOW = { timeoutMs: 600_000, maxDurationMs: 600_000 };

let server: BigBodyServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const errorsOf = (errors: Partial<Record<string, number>>): Record<string, number> => Object.fromEntries(Object.entries(errors).filter(([, n]) => (n ?? 0) > 0)) as Record<string, number>;

describe('a 1 GiB response body', () => {
  for (const keepAlive of [true, false]) {
    it(`checked by expect.bodyIncludes, its needle in the last bytes: found, the phase completes, memory stays bounded (${keepAlive ? 'fast path' : 'undici'})`, async () => {
      server = await startBigBodyServer({ size: GiB, tail: 'the-needle-at-the-end' });
      const { result, rows, peakRssGrowth } = await runDriverInChild(server.url, [burst(1, '/', { ...SLOW, keepAlive, requests: [req('/', { expect: { bodyIncludes: 'the-needle-at-the-end' } })] })]);
      expect(result.failure).toBeUndefined();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.bytes).toBe(GiB);
      expect(rows[0]!.error).toBeNull();
      expect(peakRssGrowth).toBeLessThan(BOUNDED_GROWTH);
    }, 600_000);
  }

  it('read by a flow step with a regex extract: the step is an extract error, the worker lives, memory stays bounded', async () => {
    server = await startBigBodyServer({ size: GiB, fill: 'x', tail: 'token=abc;' });
    const step = req('/', { extract: { var: 'token', from: 'regex', pattern: 'token=(\\w+);' } });
    const { result, rows, peakRssGrowth } = await runDriverInChild(server.url, [closed(1, { ...SLOW, count: 1, flow: true, requests: [step] })]);
    expect(result.failure).toBeUndefined();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.bytes).toBe(GiB);
    expect(errorsOf(result.phases[0]!.result.errors)).toEqual({ extract: 1 });
    expect(result.phases[0]!.note).toMatch(/body passed the 1 MiB bound/);
    expect(peakRssGrowth).toBeLessThan(BOUNDED_GROWTH);
  }, 600_000);
});

describe('the extract bound, at its edge', () => {
  /** {"t":"xx...x"} of exactly `size` bytes, in chunks of 4 KiB: the kept prefix grows across them */
  const jsonBody = (size: number) => ({ size, head: '{"t":"', fill: 'x', tail: '"}', chunk: 4096 });
  const flow = [req('/', { name: 'read', extract: { var: 't', from: 'json', path: 't' } }), req('/next?t={{vars.t}}', { name: 'next' })];

  it('a JSON body of exactly the bound: the value is extracted and the next step sent', async () => {
    server = await startBigBodyServer(jsonBody(MAX_EXTRACT_BODY_BYTES));
    const { result, rows } = await collect(server.url, [closed(1, { count: 4, flow: true, requests: flow })]);
    expect(result.failure).toBeUndefined();
    expect(errorsOf(result.phases[0]!.result.errors)).toEqual({});
    expect(rows.map((r) => r.templateIdx)).toEqual([0, 1, 0, 1]);
    expect(result.phases[0]!.note).toBeUndefined();
  });

  it('one byte over the bound: an extract error of the step, the next step never sent, the note says why', async () => {
    server = await startBigBodyServer(jsonBody(MAX_EXTRACT_BODY_BYTES + 1));
    const { result, rows } = await collect(server.url, [closed(1, { count: 3, flow: true, requests: flow })]);
    expect(result.failure).toBeUndefined();
    expect(errorsOf(result.phases[0]!.result.errors)).toEqual({ extract: 3 });
    expect(rows.map((r) => r.templateIdx)).toEqual([0, 0, 0]);
    expect(result.phases[0]!.note).toBe("phase 'phase 1': 3 extract steps failed: the body passed the 1 MiB bound of what a step keeps to extract from");
  });
});

describe('expect.bodyIncludes across chunks', () => {
  for (const keepAlive of [true, false]) {
    it(`a needle split over 7-byte chunks: found; one byte short of it: a body error (${keepAlive ? 'fast path' : 'undici'})`, async () => {
      const needle = 'needle-of-21-bytes-!!';
      server = await startBigBodyServer({ size: 100_000, fill: 'n', tail: needle, chunk: 7 });
      const found = req('/', { name: 'found', expect: { bodyIncludes: needle } });
      const missing = req('/', { name: 'missing', expect: { bodyIncludes: `${needle}?` } });
      const { result, rows } = await collect(server.url, [burst(1, '/', { keepAlive, requests: [found] }), burst(1, '/', { keepAlive, requests: [missing] })]);
      expect(result.failure).toBeUndefined();
      expect(rows.map((r) => [r.phaseIdx, r.bytes, r.error])).toEqual([
        [0, 100_000, null],
        [1, 100_000, 'body'],
      ]);
    });
  }
});
