import type { LookupAddress } from 'node:dns';
import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { TargetUrl } from '../../contract/scenario.js';
import { H1Connection } from '../driver/transport/h1.js';
import { compileH1 } from '../driver/test-support/compile-h1.js';
import { targetOf } from '../driver/transport/target.js';
import { runDriver, type DriverPlan, type DriverResult } from '../driver/driver.js';
import { Runner } from '../driver/run.js';
import { burst, req } from '../driver/test-support/phases.js';
import { startTestServer, type TestServer } from '../driver/test-support/server.js';
import { pollUrl } from '../supervisor/readiness.js';
import { checkLiteralTarget, setTargetResolver, guardedLookup, isLoopbackAddress } from './target-guard.js';

// The loopback rule is enforced on the address connected to. Names "resolve" through a fake
// resolver here, so a refusal is tested without a single packet leaving this machine: the guard
// fails inside the lookup, before net.connect has an address to connect to.

const fakeDns: Record<string, string> = { 'remote.test': '10.255.255.1', 'loop.test': '127.0.0.1', 'mixed.test': '127.0.0.1,192.0.2.7' };
const lookedUp: string[] = [];
const fakeResolver = (host: string, _o: unknown, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => {
  lookedUp.push(host);
  const found = fakeDns[host];
  if (!found) return cb(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
  cb(null, found.split(',').map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
};

// Here 'localhost' "resolves" to TEST-NET-1 (192.0.2.1). A connection that skipped the guard's
// lookup would resolve it through the system, to 127.0.0.1 (/etc/hosts), and reach the test server:
// the test then fails, and still no packet (not even a DNS query) leaves this machine.
const localhostElsewhere: typeof fakeResolver = (host, options, cb) => (host === 'localhost' ? cb(null, [{ address: '192.0.2.1', family: 4 }]) : fakeResolver(host, options, cb));

/** The driver's phase runner in this thread (runDriver's worker sets its own resolver), so the fake resolver applies. */
const runPhases = (baseUrl: string, phases: DriverPlan['phases']): Promise<DriverResult> => new Runner({ baseUrl, phases }, () => undefined).run();

let server: TestServer | null = null;
afterEach(async () => {
  setTargetResolver();
  lookedUp.length = 0;
  await server?.close();
  server = null;
});

describe('target guard', () => {
  it('knows loopback addresses: 127.0.0.0/8, ::1, IPv4-mapped 127/8, and nothing else', () => {
    for (const a of ['127.0.0.1', '127.255.255.254', '::1', '[::1]', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['128.0.0.1', '10.0.0.1', '0.0.0.0', '::', '::2', '::ffff:10.0.0.1', 'localhost', '', '1.127.0.0']) expect(isLoopbackAddress(a), a).toBe(false);
  });

  it('refuses http://127.0.0.1:1@<elsewhere>/: the schema refuses userinfo, the driver and the probe refuse the real host', async () => {
    const sneaky = 'http://127.0.0.1:1@10.0.0.1/';
    expect(TargetUrl.safeParse(sneaky).success).toBe(false);
    expect(() => checkLiteralTarget(sneaky, false)).toThrow(/refused 10\.0\.0\.1/);
    await expect(runDriver({ baseUrl: sneaky, phases: [burst(1)] }, {})).rejects.toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK' });
    await expect(runDriver({ baseUrl: 'http://0x0a000001/', phases: [burst(1)] }, {})).rejects.toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK' });
    const probe = pollUrl(sneaky);
    await expect(probe.done).rejects.toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK' });
    probe.cancel();
    // 127.1 is 127.0.0.1 the WHATWG way, as the connection reads it.
    expect(() => checkLiteralTarget('http://127.1:80/', false)).not.toThrow();
  });

  it('refuses a name that resolves outside this machine (any of its addresses), in the lookup', async () => {
    const lookup = guardedLookup(false, fakeResolver);
    const ask = (host: string) =>
      new Promise<{ err: (Error & { code?: string }) | null; address: unknown }>((resolve) =>
        lookup(host, { all: true }, (err, address) => resolve({ err, address })),
      );
    expect((await ask('remote.test')).err).toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK', message: expect.stringContaining('remote.test (10.255.255.1)') });
    expect((await ask('mixed.test')).err).toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK' });
    expect(await ask('loop.test')).toEqual({ err: null, address: [{ address: '127.0.0.1', family: 4 }] });
    // With consent the decision is "allowed"; nothing connects in this test.
    expect((await new Promise<Error | null>((resolve) => guardedLookup(true, fakeResolver)('remote.test', {}, (err) => resolve(err))))).toBeNull();
  });

  it('guards the fast path (H1Connection): a remote name fails before connecting, a loopback name connects', async () => {
    server = await startTestServer();
    setTargetResolver(fakeResolver);
    const [request] = compileH1(burst(1, '/ok', { requests: [req('/ok')] }), server.url)!;
    const fetchVia = (base: string) =>
      new Promise<string>((resolve) => {
        new H1Connection(targetOf({ baseUrl: base }), 5000).dispatch(request!, {
          onConnect: () => undefined,
          onHeaders: (status) => (resolve(`status ${status}`), true),
          onData: () => true,
          onComplete: () => undefined,
          onError: (err) => resolve(String((err as { code?: string }).code)),
        });
      });
    expect(await fetchVia(`http://remote.test:${server.port}`)).toBe('LS_ERR_NOT_LOOPBACK');
    expect(await fetchVia(`http://loop.test:${server.port}`)).toBe('status 200');
    expect(lookedUp).toEqual(['remote.test', 'loop.test']);
  });

  it("guards the driver's undici connections (ClientGroup, keepAlive: false): refused in the lookup, nothing connects", async () => {
    server = await startTestServer();
    setTargetResolver(localhostElsewhere);
    const phase = burst(3, '/ok', { keepAlive: false });
    expect(compileH1(phase, server.url)).toBeNull(); // not the fast path: the phase goes through undici
    const refusals: unknown[] = [];
    const onConnectError = (message: unknown) => refusals.push((message as { error: unknown }).error);
    diagnostics.subscribe('undici:client:connectError', onConnectError);
    try {
      const remote = await runPhases(`http://localhost:${server.port}`, [phase]);
      expect(remote.phases[0]!.result).toMatchObject({ count: 3, errors: { other: 3 } });
      expect(server.connections).toBe(0);
      expect(refusals).toHaveLength(3);
      for (const err of refusals) expect(err).toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK', message: expect.stringMatching(/^[^\n]*refused localhost \(192\.0\.2\.1\)$/) });

      const local = await runPhases(`http://loop.test:${server.port}`, [phase]);
      expect(local.phases[0]!.result).toMatchObject({ count: 3, errors: { refused: 0, reset: 0, timeout: 0, http: 0, body: 0, other: 0 } });
      expect(server.connections).toBe(3);
      expect(refusals).toHaveLength(3);
    } finally {
      diagnostics.unsubscribe('undici:client:connectError', onConnectError);
    }
  });

  it('guards readiness probes on the resolved address', async () => {
    server = await startTestServer();
    setTargetResolver(localhostElsewhere);
    const probe = pollUrl(`http://localhost:${server.port}/ok`);
    await expect(probe.done).rejects.toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK', message: expect.stringContaining('refused localhost (192.0.2.1)') });
    probe.cancel();
    expect(server.connections).toBe(0);
    const loop = pollUrl(`http://loop.test:${server.port}/ok`);
    await loop.done;
    loop.cancel();
    expect(server.connections).toBe(1);
  });
});
