import { afterEach, describe, expect, it } from 'vitest';
import type { RequestTemplate } from '../../../contract/scenario.js';
import { startServer, stopAll } from '../../../servers/test-support/servers.js';
import { closed, collect, req, sequential } from '../test-support/phases.js';

// A request's checks under load (issue 39): the real driver worker against the real bundled API
// (servers/: a single-process server from dist/; build first). Each response is judged by the one
// evaluator (contract/check-eval.ts); a failed check is a 'check' error of its endpoint, and every
// check is counted per endpoint, pass and fail, under its name. The requests are numbered
// ({{counter}}), so which responses fail is known exactly: so are the counts.

afterEach(stopAll);

const errorsOf = (errors: Partial<Record<string, number>>): Record<string, number> => Object.fromEntries(Object.entries(errors).filter(([, n]) => (n ?? 0) > 0)) as Record<string, number>;

describe('checks counted per endpoint under load', () => {
  it("a login journey: login's checks all pass, the item's id check fails on 18 of 20; each failure a 'check' error of the item endpoint", async () => {
    const server = await startServer('single');
    const login = req('/api/login', {
      name: 'login',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"ann","password":"secret"}',
      extract: { var: 'token', from: 'json', path: 'token' },
      expect: { status: 200, checks: [{ json: 'token', type: 'string' }, { header: 'Content-Type', matches: '^application/json' }] },
    } as Partial<RequestTemplate>);
    // one user: requests alternate login, item; {{counter}} numbers the requests built per request (the items): ids 1 to 20, 10 and 20 pass
    const item = req('/api/items/{{counter}}', {
      name: 'item',
      headers: { Authorization: 'Bearer {{vars.token}}' },
      expect: { status: 200, checks: [{ json: 'id', type: 'number' }, { name: 'id ends in 0', bodyMatches: '"id":\\d*0,' }, { sizeAtMost: 1024 }] },
    } as Partial<RequestTemplate>);
    const { result, rows } = await collect(server.url, [closed(1, { count: 40, flow: true, requests: [login, item] })]);
    expect(result.failure).toBeUndefined();
    const phase = result.phases[0]!.result;
    expect(errorsOf(phase.errors)).toEqual({ check: 18 });
    expect(phase.ok).toBe(22);
    expect(phase.endpoints!.map((e) => [e.name, e.count, errorsOf(e.errors), e.checks])).toEqual([
      [
        'login',
        20,
        {},
        [
          { name: 'status 200', passes: 20, fails: 0 },
          { name: 'json token is string', passes: 20, fails: 0 },
          { name: 'header content-type matches ^application/json', passes: 20, fails: 0 },
        ],
      ],
      [
        'item',
        20,
        { check: 18 },
        [
          { name: 'status 200', passes: 20, fails: 0 },
          { name: 'json id is number', passes: 20, fails: 0 },
          { name: 'id ends in 0', passes: 2, fails: 18 },
          { name: 'size at most 1 KiB', passes: 20, fails: 0 },
        ],
      ],
    ]);
    // the raw rows say which: every answer was a 200, the failed ones are the items not ending in 0
    expect(rows.every((r) => r.status === 200)).toBe(true);
    expect(rows.filter((r) => r.error === 'check').map((r) => r.templateIdx)).toEqual(Array(18).fill(1));
  });

  it('one endpoint on the fast path (no header check): its body is kept for its checks, counted as its phase is', async () => {
    const server = await startServer('single');
    const echo = req('/api/echo', {
      name: 'echo',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n":{{counter}}}',
      expect: { status: '2xx', checks: [{ json: 'body.n', type: 'number' }, { name: 'n ends in 0 or 5', bodyMatches: '"n":\\d*[05]\\}' }, { json: 'method', equals: 'POST' }] },
    } as Partial<RequestTemplate>);
    const { result } = await collect(server.url, [sequential(20, '/api/echo', { requests: [echo] })]);
    const phase = result.phases[0]!.result;
    expect(errorsOf(phase.errors)).toEqual({ check: 16 });
    expect(phase.endpoints!.map((e) => [e.name, e.checks])).toEqual([
      [
        'echo',
        [
          { name: 'status 2xx', passes: 20, fails: 0 },
          { name: 'json body.n is number', passes: 20, fails: 0 },
          { name: 'n ends in 0 or 5', passes: 4, fails: 16 },
          { name: 'json method equals "POST"', passes: 20, fails: 0 },
        ],
      ],
    ]);
  });
});
