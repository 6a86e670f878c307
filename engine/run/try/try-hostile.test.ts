import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TRY_LIMITS } from '../../../contract/try-once.js';
import { startBigBodyServer } from '../../driver/test-support/big-body-server.js';
import { startSlowHttp } from '../../driver/test-support/hostile-servers.js';
import { useTempEngine } from '../../test-support/temp-engine.js';
import { startSilentServer } from './test-support/silent-server.js';

// A try (issue 39) against targets that misbehave, each a real server on 127.0.0.1: one that never
// answers and one that trickles its body forever end at the phase's timeoutMs (the try's own
// deadline: undici's idle timers never fire on a trickle); a 50 MB body is read to its end (a check
// finds its last bytes) while only TRY_LIMITS.bodyBytes of it is kept, and an extract over it fails
// at the extract bound; checks read the body to their own bound (past what is shown), and a body
// past it fails its JSON check as not read, at the check; a target nothing listens on is one line, and nothing more is sent; a
// scenario of many requests sends at most TRY_LIMITS.steps of them.

const temp = useTempEngine('try-hostile');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const external = (url: string, phases: object[], readiness?: object) => ({ name: 'try-hostile', servers: [{ architecture: 'external', url, ...(readiness !== undefined && { readiness }) }], phases });
const tryText = (scenario: object) => temp.engine.handlers['scenarios:try']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {}, server: 0 });

/** A URL on 127.0.0.1 where nothing listens (a port bound and let go). */
async function closedPort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('a try against hostile targets', () => {
  it('a server that never answers: each request ends at the phase timeoutMs as a timeout, pointing at it', async () => {
    const silent = await startSilentServer();
    closers.push(silent.close);
    const result = await tryText(external(silent.url, [{ executor: 'sequential', count: 5, timeoutMs: 300, requests: [{ path: '/a' }, { path: '/b' }] }], { url: `${silent.url}/ready` }));
    expect(result.passed).toBe(false);
    expect(result.unreachable, 'it connected: the target was reached').toBeNull();
    for (const step of result.steps) {
      expect(step.error).toEqual({ kind: 'timeout', message: "no complete answer within 300 ms (the phase's timeoutMs)" });
      expect(step.failurePath).toBe('phases[0].timeoutMs');
      expect(step.response).toBeNull();
      expect(step.timing!.ttfbMs).toBeNull();
    }
    // the readiness check's, then one per request: a timed-out connection is not used again
    expect(silent.connections).toBe(3);
  });

  it('a body trickled forever: the request ends at its deadline, the status and headers that came are shown', async () => {
    const slow = await startSlowHttp('trickle-body', { everyMs: 20 });
    closers.push(slow.close);
    const result = await tryText(external(slow.url, [{ executor: 'sequential', count: 1, timeoutMs: 400, requests: [{ path: '/slow' }] }]));
    const [step] = result.steps;
    expect(step!.error!.kind).toBe('timeout');
    expect(step!.response!.status).toBe(200);
    expect(step!.response!.body.bytes).toBeGreaterThan(0);
  });

  it('a 50 MB body: read to its end (the check finds its last bytes), at most the shown bound kept, its size said', async () => {
    const size = 50 * 1024 * 1024;
    const big = await startBigBodyServer({ size, head: '{"items":"', fill: 'x', tail: 'the-end"}' });
    closers.push(big.close);
    const result = await tryText(external(big.url, [{ executor: 'closed', users: 1, count: 1, flow: true, requests: [{ path: '/big', expect: { bodyIncludes: 'the-end' } }, { path: '/big-again', extract: { var: 'items', from: 'json', path: 'items' } }] }]));
    const [first, second] = result.steps;
    expect(first!.error).toBeNull();
    expect(first!.checks.find((c) => c.name === 'body includes the-end')!.ok).toBe(true);
    expect(first!.response!.body).toMatchObject({ bytes: size, cut: true, json: false });
    expect(first!.response!.body.text.length).toBeLessThanOrEqual(TRY_LIMITS.bodyBytes);
    expect(first!.response!.body.text.startsWith('{"items":"xxx')).toBe(true);
    // the extract reads at most its own bound: a one-line failure at the step's extract
    expect(second!.error).toEqual({ kind: 'extract', message: 'the body passed 1 MiB, the bound of what a step keeps to extract from' });
    expect(second!.failurePath).toBe('phases[0].requests[1].extract');
    expect(second!.response!.body.bytes).toBe(size);
  });

  it('a JSON value after 512 KiB of body, then after 4 MiB: judged past the 32 KiB shown, then failed as not read (the checks read 1 MiB), at the check', async () => {
    const shape = { head: '{"pad":"', fill: 'x', tail: '","id":7}' };
    const mid = await startBigBodyServer({ size: 512 * 1024, ...shape });
    const big = await startBigBodyServer({ size: 4 * 1024 * 1024, ...shape });
    closers.push(mid.close, big.close);
    const phases = [{ executor: 'sequential', count: 1, requests: [{ path: '/items', expect: { checks: [{ json: 'id', equals: 7 }, { sizeAtMost: 1024 * 1024 }] } }] }];
    const [read] = (await tryText(external(mid.url, phases))).steps;
    expect(read!.response!.body.cut).toBe(true);
    expect(read!.error).toBeNull();
    expect(read!.checks.map((c) => [c.name, c.ok, c.actual, c.path])).toEqual([
      ['status under 400', true, '200', 'phases[0].requests[0].expect.status'],
      ['json id equals 7', true, '7', 'phases[0].requests[0].expect.checks[0]'],
      ['size at most 1 MiB', true, `${512 * 1024} bytes`, 'phases[0].requests[0].expect.checks[1]'],
    ]);
    const [unread] = (await tryText(external(big.url, phases))).steps;
    expect(unread!.error).toEqual({ kind: 'check', message: `json id equals 7 failed: not read: a body of 4 MiB; checks read at most 1 MiB; size at most 1 MiB failed: ${4 * 1024 * 1024} bytes` });
    expect(unread!.failurePath).toBe('phases[0].requests[0].expect.checks[0]');
  });

  it('a scenario of 2 phases of 60 requests: the first 100 are sent, the rest listed as not sent and why', async () => {
    const requests = Array.from({ length: 60 }, (_, i) => ({ name: `fib ${i}`, path: '/fib?n=1' }));
    const phases = [0, 1].map(() => ({ executor: 'sequential', count: 1, requests }));
    const result = await tryText({ name: 'try-many', servers: [{ architecture: 'single' }], phases });
    const sent = result.steps.filter((s) => s.notSent === null);
    expect(sent).toHaveLength(TRY_LIMITS.steps);
    expect(sent.every((s) => s.response?.status === 200)).toBe(true);
    expect(result.steps.slice(TRY_LIMITS.steps).map((s) => s.notSent)).toEqual(Array(120 - TRY_LIMITS.steps).fill(`a try sends at most ${TRY_LIMITS.steps} requests`));
    expect(result.passed).toBe(false);
  });

  it('a scenario with an SSE stream: refused in one line naming the stream, before any server starts or anything is sent', async () => {
    const url = await closedPort();
    const phases = [{ executor: 'sequential', count: 1, requests: [{ path: '/a' }, { path: '/events', stream: { protocol: 'sse', events: 3 } }] }];
    const error = await tryText(external(url, phases, { timeoutMs: 500 })).then(
      () => null,
      (err: unknown) => err as { code: string; message: string },
    );
    expect(error?.code).toBe('LS_ERR_BAD_REQUEST');
    expect(error?.message).toBe('phases[0].requests[1].stream: Try once shows one request and its response; a stream is timed by a run (its events, gaps and end), so run it instead');
  });

  it('a GET with a body to an h2c server: refused in one line naming the body, before any server starts (undici cannot send it, and the try once ended the process)', async () => {
    const scenario = { name: 'h2c-get-body', servers: [{ architecture: 'single', options: { protocol: 'h2c' } }], phases: [{ executor: 'sequential', count: 1, requests: [{ path: '/fib?n=10', body: '{"n": 5}' }] }] };
    const error = await tryText(scenario).then(
      () => null,
      (err: unknown) => err as { code: string; message: string },
    );
    expect(error?.code).toBe('LS_ERR_SCENARIO_INVALID');
    expect(error?.message).toContain('phases[0].requests[0].body: a GET with a body cannot be sent over HTTP/2 (servers[0] speaks it)');
  });

  it('a target nothing listens on: one line from the start, as a run gets it, and nothing is sent', async () => {
    const url = await closedPort();
    const error = await tryText(external(url, [{ executor: 'sequential', count: 1, requests: [{ path: '/a' }] }], { timeoutMs: 500 })).then(
      () => null,
      (err: unknown) => err as { code: string; message: string },
    );
    expect(error?.code).toBe('LS_ERR_SERVER_START');
    expect(error?.message).toBe(`external: nothing answered at ${url} within 500 ms (no command given, so it must already be running)`);
  });

  it('a target whose health check answers but whose port refuses: one line saying it could not be reached, nothing more sent', async () => {
    const ready = await startSilentServer();
    closers.push(ready.close);
    const url = await closedPort();
    const result = await tryText(external(url, [{ executor: 'sequential', count: 1, requests: [{ path: '/a' }, { path: '/b' }] }, { executor: 'sequential', count: 1, requests: [{ path: '/c' }] }], { url: `${ready.url}/ready` }));
    const port = new URL(url).port;
    expect(result.unreachable).toMatch(new RegExp(`^${url} could not be reached: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    expect(result.unreachable).not.toContain('\n');
    expect(result.steps.map((s) => s.notSent)).toEqual([null, 'the target could not be reached', 'the target could not be reached']);
    expect(result.steps[0]!.error!.kind).toBe('refused');
  });
});
