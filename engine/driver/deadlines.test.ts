import { afterEach, describe, expect, it } from 'vitest';
import type { PhaseBase, PhaseKind } from '../../contract/phase.js';
import type { Phase } from '../../contract/scenario.js';
import { makeTransport } from '../../servers/front-transport.js';
import { ClosedLoop } from './executors/closed-loop.js';
import { Runner } from './run.js';
import { startTestServer, type TestServer } from './test-support/server.js';
import type { DriverPhaseResult, DriverPlan } from './types.js';
import { burst, closed, collect, rampingUsers, rate, sequential, type Collected } from './test-support/phases.js';
import { startH2cFlood, startSlowH2, startSlowHttp, type HostileServer, type SlowHttp } from './test-support/hostile-servers.js';
import { addToyExecutor } from './test-support/toy-kinds.js';

// Every request has a deadline of its own, timeoutMs from its send, covering its head and its body
// whatever the client library does: a server trickling a response a byte at a time, or sending a
// body that never ends, defeats every idle timer (h1.ts's socket timeout, undici's headersTimeout
// and bodyTimeout), and a 1 s phase used to run for maxDurationMs (600 s by default). Each server
// here is real (test-support/hostile-servers.ts, on 127.0.0.1), each phase short (ends sending at
// 1 s, timeoutMs 1 s) with maxDurationMs left at 600 s: a phase that does not end is this test's
// own timeout. An h2c server flooding PING or SETTINGS frames wedged undici's client (requests
// never sent nor failed): its client is now replaced, and the phase ends. A phase that stops sending
// at a time ends by that time + timeoutMs (contract/phase.ts phaseDeadlineMs), whatever its kind.

let server: HostileServer | TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Long enough for a phase that ends; far shorter than the 600 s a phase without deadlines ran. */
const ENDS_WITHIN = 30_000;
const short = { timeoutMs: 1000, maxDurationMs: 600_000 } as const;
const closedFor1s = (users = 2): Phase => closed(users, { durationMs: 1000, ...short });

/** The phase ended by itself (not cancelled, its worker alive), and every request it sent is a timeout. */
function allTimedOut({ result, rows }: Collected): void {
  expect(result.cancelled).toBe(false);
  expect(result.failure).toBeUndefined();
  const phase = result.phases[0]!.result;
  expect(phase.count).toBeGreaterThan(0);
  expect(rows).toHaveLength(phase.count);
  expect(phase.errors.timeout).toBe(phase.count);
  expect(rows.every((r) => r.error === 'timeout')).toBe(true);
  // each waited its whole deadline first: from its intended time, since one sent last (on a new
  // connection, its send stamped after connecting) is cut by the phase's deadline, send end + timeoutMs
  expect(rows.every((r) => r.doneUs - r.intendedUs >= 1000 * 1000)).toBe(true);
}

const SLOW: SlowHttp[] = ['trickle-head', 'trickle-body', 'endless-chunked'];
const words: Record<SlowHttp, string> = {
  'trickle-head': 'a response head trickled a byte at a time',
  'trickle-body': 'a body trickled a byte at a time',
  'endless-chunked': 'an endless chunked body',
};

describe('a response that never ends, on every client path: each request ends as a timeout at its deadline and the phase ends', () => {
  for (const how of SLOW) {
    it(`${words[how]}, on the fast path (plain http, keep-alive): every request a timeout, the closed phase ends`, async () => {
      server = await startSlowHttp(how);
      allTimedOut(await collect(server.url, [closedFor1s()]));
    }, ENDS_WITHIN);

    it(`${words[how]}, through undici over HTTP/1.1 (keepAlive: false): every request a timeout, the closed phase ends`, async () => {
      server = await startSlowHttp(how);
      allTimedOut(await collect(server.url, [closed(2, { durationMs: 1000, keepAlive: false, ...short })]));
    }, ENDS_WITHIN);

    it(`${words[how]}, through undici over https: every request a timeout, the closed phase ends`, async () => {
      const { tls } = await makeTransport('h1-tls');
      server = await startSlowHttp(how, { tls: tls! });
      allTimedOut(await collect(server.url, [closedFor1s()], undefined, { tls: { insecure: false, ca: tls!.cert } }));
    }, ENDS_WITHIN);
  }

  for (const how of ['trickle-body', 'endless-body'] as const) {
    it(`${how === 'trickle-body' ? 'a body trickled a byte at a time' : 'an endless body'}, over h2 (two streams per connection): every request a timeout, the closed phase ends`, async () => {
      const { tls } = await makeTransport('h2');
      server = await startSlowH2(how, tls!);
      const plan: Partial<DriverPlan> = { tls: { insecure: false, ca: tls!.cert }, protocol: 'h2', streams: 2 };
      allTimedOut(await collect(server.url, [closedFor1s(4)], undefined, plan));
    }, ENDS_WITHIN);
  }
});

describe('phases that end by their count or their ramp, against a trickled body: each request has its deadline, so the phase ends', () => {
  it('a burst of 3: three timeouts, the phase ends', async () => {
    server = await startSlowHttp('trickle-body');
    const run = await collect(server.url, [burst(3, '/', short)]);
    allTimedOut(run);
    expect(run.rows).toHaveLength(3);
  }, ENDS_WITHIN);

  it('sequential, 2 requests: two timeouts one after the other, the phase ends', async () => {
    server = await startSlowHttp('trickle-body');
    const run = await collect(server.url, [sequential(2, '/', short)]);
    allTimedOut(run);
    expect(run.rows).toHaveLength(2);
  }, ENDS_WITHIN);

  it('ramping users up to 2 over 1 s: every request a timeout, the phase ends', async () => {
    server = await startSlowHttp('trickle-body');
    allTimedOut(await collect(server.url, [rampingUsers([{ durationMs: 1000, target: 2 }], '/', short)]));
  }, ENDS_WITHIN);
});

describe('an open-loop phase whose arrivals wait behind trickled responses', () => {
  it('rate 20/s for 1 s with 2 in flight, on the fast path: each freed slot takes a waiting arrival at once, and every request, sent or waiting, is a timeout', async () => {
    server = await startSlowHttp('trickle-body');
    const run = await collect(server.url, [rate(20, 1000, '/', { maxInFlight: 2, ...short })]);
    expect(run.result.cancelled).toBe(false);
    const phase = run.result.phases[0]!.result;
    // the arrivals still waiting at the phase's deadline count too (never sent)
    expect(phase.errors.timeout).toBe(phase.count);
    expect(run.rows.every((r) => r.error === 'timeout')).toBe(true);
    // two sent at the start, and more sent on the slots their deadlines freed
    expect(run.rows.filter((r) => r.sentUs !== null).length).toBeGreaterThan(2);
  }, ENDS_WITHIN);
});

describe('an h2c server flooding frames (undici wedged on the failed session)', () => {
  for (const what of ['ping', 'settings'] as const) {
    it(`a ${what === 'ping' ? 'PING' : 'SETTINGS'} flood against a closed h2c phase of 4 users on shared connections: no request hangs, none succeeds, the worker lives and the phase ends`, async () => {
      server = await startH2cFlood(what);
      const { result, rows } = await collect(server.url, [closedFor1s(4)], undefined, { protocol: 'h2c', streams: 4 });
      expect(result.cancelled).toBe(false);
      expect(result.failure).toBeUndefined();
      const phase = result.phases[0]!.result;
      expect(phase.count).toBeGreaterThan(0);
      expect(rows).toHaveLength(phase.count);
      expect(phase.ok).toBe(0);
      expect(rows.every((r) => r.error !== null)).toBe(true);
      // the wedged client was replaced: later connections were made (the probe's is the first)
      expect(server.connections).toBeGreaterThan(2);
    }, ENDS_WITHIN);
  }
});

describe("a phase's own deadline: the time it stops sending + timeoutMs, for every kind", () => {
  it('a toy kind that says it stops sending at 300 ms but never does (against a prompt server): stopped by its deadline, 300 ms + timeoutMs, and marked so', async () => {
    interface Endless extends PhaseBase {
      executor: 'endless';
      keepAlive: boolean;
      requests: Phase['requests'];
    }
    const kind: PhaseKind<Endless> = {
      executor: 'endless',
      slots: () => 1,
      plannedMs: () => 300,
      expectedRequests: () => null,
      arrivalsEndMs: () => null,
      sendsUntilMs: () => 300,
      plan: () => ({ kind: 'time', durationMs: 300 }),
      thinkMs: () => 0,
      ramp: () => undefined,
      describe: () => 'one user for 300 ms',
    };
    // one user who sends again as each answer comes, with no end of its own
    addToyExecutor<Endless>(kind, { kind: 'endless', create: () => new ClosedLoop(1, Infinity, 0, Infinity) });
    const phase: Endless = { executor: 'endless', clients: 1, keepAlive: true, timeoutMs: 500, maxDurationMs: 600_000, requests: [{ method: 'GET', path: '/ok', headers: {}, weight: 1 }] };
    server = await startTestServer();
    const ends: DriverPhaseResult[] = [];
    // in this thread (a kind registered here is unknown to a worker's own modules), as the toy executor's test runs it
    const runner = new Runner({ baseUrl: server.url, phases: [phase as unknown as Phase] }, (msg) => {
      if (msg.type === 'phase-end') ends.push(msg.result);
    });
    const result = await runner.run();
    expect(result.cancelled).toBe(false);
    expect(ends).toHaveLength(1);
    expect(ends[0]!.hitDeadline).toBe(true);
    expect(ends[0]!.result.count).toBeGreaterThan(0);
    // at its deadline, not at the 300 ms its kind states (Node's timers may fire up to a millisecond early)
    expect(ends[0]!.result.durationMs).toBeGreaterThanOrEqual(798);
  }, ENDS_WITHIN);
});
