import { afterEach, describe, expect, it } from 'vitest';
import { MAX_EXTRACT_BODY_BYTES, MAX_REQUEST_BYTES } from '../../../contract/request-limits.js';
import { Prng } from '../arrivals.js';
import { VariableRequest, type RequestInputs } from './request-compile.js';
import { startBigBodyServer, type BigBodyServer } from '../test-support/big-body-server.js';
import { closed, collect, req } from '../test-support/phases.js';

// A request as built is at most MAX_REQUEST_BYTES of path, header names and values, and body
// (contract/request-limits.ts). Validation refuses what data values would make too big
// (engine/scenario/request-bounds.test.ts); at run time a value extracted from a response can still
// make one, and then the driver neither builds nor sends it: an 'other' error of that request, the
// phase goes on, and its note says why. Refusing is cheap: building stops at the value that crossed.

let server: BigBodyServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** vars that count how many values the build read */
class CountingVars extends Map<string, string> {
  reads = 0;
  override get(key: string): string | undefined {
    this.reads++;
    return super.get(key);
  }
}
const inputs = (vars: Map<string, string> | null): RequestInputs => ({ counter: 1, user: 1, row: null, vars, prng: new Prng(1) });
const errorsOf = (errors: Partial<Record<string, number>>): Record<string, number> => Object.fromEntries(Object.entries(errors).filter(([, n]) => (n ?? 0) > 0)) as Record<string, number>;

describe('building a request over the bound', () => {
  // path '/' (1) + header 'x-a' and its value 'b' (4): 5 bytes besides the body's value
  const template = { method: 'POST', path: '/', headers: { 'x-a': 'b', 'content-type': 'text/plain' }, body: '{{vars.v}}' };
  const fixed = 1 + 4 + 'content-type'.length + 'text/plain'.length;

  for (const host of ['127.0.0.1:1', null]) {
    const build = (r: VariableRequest, vars: Map<string, string>) => (host === null ? r.parts(inputs(vars)) : r.build(inputs(vars)));
    it(`a request of exactly the bound: built; a byte more: not built (${host === null ? 'undici' : 'fast path'})`, () => {
      const r = new VariableRequest(template, host, []);
      expect(build(r, new Map([['v', 'x'.repeat(MAX_REQUEST_BYTES - fixed)]]))).not.toBeNull();
      expect(build(r, new Map([['v', 'x'.repeat(MAX_REQUEST_BYTES - fixed + 1)]]))).toBeNull();
      // UTF-8 bytes, not characters: one 2-byte character over
      expect(build(r, new Map([['v', `${'x'.repeat(MAX_REQUEST_BYTES - fixed - 1)}é`]]))).toBeNull();
    });

    it(`300 uses of a 1 MiB value: refused at the 4th (the path and 4 MiB of them cross 4 MiB), the other 296 never read (${host === null ? 'undici' : 'fast path'})`, () => {
      const r = new VariableRequest({ method: 'POST', path: '/', headers: {}, body: '{{vars.v}}'.repeat(300) }, host, []);
      const vars = new CountingVars([['v', 'x'.repeat(1024 * 1024)]]);
      expect(build(r, vars)).toBeNull();
      expect(vars.reads).toBe(4);
    });
  }
});

describe('a value extracted at run time makes the next request too big', () => {
  for (const keepAlive of [true, false]) {
    it(`the step is not sent: an 'other' error, the user starts again, the note says why (${keepAlive ? 'fast path' : 'undici'})`, async () => {
      // the token fits the extract bound; five of it do not fit a request
      server = await startBigBodyServer({ size: MAX_EXTRACT_BODY_BYTES, head: '{"t":"', fill: 't', tail: '"}' });
      const login = req('/login', { name: 'login', extract: { var: 't', from: 'json', path: 't' } });
      const upload = req('/upload', { name: 'upload', method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{{vars.t}}'.repeat(5) });
      const { result, rows } = await collect(server.url, [closed(1, { keepAlive, count: 4, flow: true, requests: [login, upload] })]);
      expect(result.failure).toBeUndefined();
      const phase = result.phases[0]!;
      expect(rows.map((r) => [r.templateIdx, r.error, r.sentUs === null])).toEqual([
        [0, null, false],
        [1, 'other', true],
        [0, null, false],
        [1, 'other', true],
      ]);
      expect(errorsOf(phase.result.errors)).toEqual({ other: 2 });
      expect(server.requests.map((line) => line.split(' ')[1])).toEqual(['/login', '/login']);
      expect(phase.note).toBe("phase 'phase 1': 2 requests were not sent: over the 4 MiB bound of a request as built (path, headers and body), counted as 'other' errors");
    });
  }
});
