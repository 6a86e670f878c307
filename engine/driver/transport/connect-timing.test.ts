import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTransport } from '../../../servers/front-transport.js';
import { startServer, stopAll } from '../../../servers/test-support/servers.js';
import { runDriver } from '../driver.js';
import { closed, rate } from '../test-support/phases.js';

// The TLS handshake as its own figure (issue 28), against real bundled servers over https and h2 on
// 127.0.0.1 (from dist/: npx tsc -p tsconfig.node.json): a phase's new connections with their connect
// and handshake times; keepAlive false opens one per request, keepAlive true one per user. Those done
// in a phase's first 0.5 s are counted apart (issue 36: a keep-alive run's start-up storm, whose
// requests wait for their connection in client queue). https keep-alive goes the fast path over TLS
// (issue 42), which times its own handshakes and opens none ahead untimed.

let h2Only: Http2SecureServer | null = null;
let tcp: Server | null = null;
afterEach(async () => {
  await stopAll();
  h2Only?.close();
  h2Only = null;
  tcp?.close();
  tcp = null;
});

const quiet = {};

describe('connections and their TLS handshake per phase', () => {
  it('https with keepAlive false: one new connection per request, each with a handshake time; plain http: none', async () => {
    const server = await startServer('single', { protocol: 'h1-tls' });
    const result = await runDriver({ baseUrl: server.url, tls: { insecure: true }, phases: [closed(2, { count: 30, keepAlive: false }, '/fib?n=5')] }, quiet);
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(30);
    const c = phase.connections!;
    // each request's own connection (an error-free run makes no more than one per request)
    expect(c.opened).toBe(30);
    expect(c.handshake.count).toBe(30);
    expect(c.connect.count).toBe(30);
    expect(c.handshake.mean).toBeGreaterThan(0);
    expect(c.handshake.p50).toBeGreaterThan(0);
    expect(c.handshake.max).toBeGreaterThanOrEqual(c.handshake.p99);
    // the same phases over plain http (the fast path, and undici without keep-alive): no figure
    const plain = await startServer('single');
    const http = await runDriver({ baseUrl: plain.url, phases: [closed(2, { count: 10 }, '/fib?n=5'), closed(2, { count: 10, keepAlive: false }, '/fib?n=5')] }, quiet);
    expect(http.phases.map((p) => p.result.ok)).toEqual([10, 10]);
    expect(http.phases.map((p) => p.result.connections)).toEqual([undefined, undefined]);
  });

  it('https with keepAlive true: no more connections than users', async () => {
    const server = await startServer('single', { protocol: 'h1-tls' });
    const result = await runDriver({ baseUrl: server.url, tls: { insecure: false, ca: server.cert! }, phases: [closed(3, { count: 60 }, '/fib?n=5')] }, quiet);
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(60);
    expect(phase.connections!.opened).toBeGreaterThanOrEqual(1);
    expect(phase.connections!.opened).toBeLessThanOrEqual(3);
    expect(phase.connections!.handshake.max).toBeGreaterThan(0);
  });

  it('keep-alive https: the first requests wait for their connection, and that wait is client queue', async () => {
    const server = await startServer('single', { protocol: 'h1-tls' });
    const result = await runDriver({ baseUrl: server.url, tls: { insecure: true }, phases: [closed(3, { count: 30 }, '/fib?n=5')] }, quiet);
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(30);
    const c = phase.connections!;
    // each user's first request is due at the phase's start and sent once its connection is up
    expect(phase.lag.max).toBeGreaterThanOrEqual(c.connect.min + c.handshake.min);
    expect(c.atStartup).toBeGreaterThanOrEqual(0);
    expect(c.atStartup).toBeLessThanOrEqual(c.opened);
  });

  it('https with preconnect (the fast path over TLS): no connection is opened ahead untimed; every user\'s connection has its handshake time in the phase', async () => {
    const server = await startServer('single', { protocol: 'h1-tls' });
    const result = await runDriver({ baseUrl: server.url, tls: { insecure: true }, phases: [closed(3, { count: 30, preconnect: true }, '/fib?n=5')] }, quiet);
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(30);
    // plain http's connections are opened before the phase (run.ts preconnect); an https one's handshake is the phase's own figure, as on undici
    const c = phase.connections!;
    expect(c.opened).toBeGreaterThanOrEqual(3);
    expect(c.handshake.count).toBe(c.opened);
  });

  it('https at 40 req/s for 1 s without keep-alive: the handshakes of arrivals past 0.5 s are not counted at start-up', async () => {
    const server = await startServer('single', { protocol: 'h1-tls' });
    const result = await runDriver({ baseUrl: server.url, tls: { insecure: true }, phases: [rate(40, 1000, '/fib?n=5', { keepAlive: false })] }, quiet);
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(40);
    const c = phase.connections!;
    expect(c.opened).toBe(40);
    // uniform arrivals every 25 ms: 20 before 0.5 s; a connection is opened after its arrival, so the rest end later
    expect(typeof c.atStartup).toBe('number');
    expect(c.atStartup).toBeLessThanOrEqual(20);
  });

  it('h2 by ALPN through the timed connector (an h2-only server): `streams` users per connection, each connection timed once', async () => {
    const { tls } = await makeTransport('h2');
    // no HTTP/1.1 at all: a connector that lost allowH2 (ALPN h2) would get no answer
    h2Only = createSecureServer({ ...tls!, allowHTTP1: false }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => h2Only!.listen(0, '127.0.0.1', resolve));
    const port = (h2Only.address() as AddressInfo).port;
    const result = await runDriver({ baseUrl: `https://127.0.0.1:${port}`, tls: { insecure: true }, protocol: 'h2', streams: 4, phases: [closed(8, { count: 80 })] }, quiet);
    expect(result.protocol).toBe('h2');
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(80);
    expect(phase.connections!.opened).toBe(2);
    expect(phase.connections!.handshake.count).toBe(2);
  });

  it('a handshake that never completes (the server drops each connection after its TCP accept) is no connection and no time', async () => {
    tcp = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => tcp!.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as AddressInfo).port;
    const result = await runDriver({ baseUrl: `https://127.0.0.1:${port}`, tls: { insecure: true }, phases: [closed(2, { count: 10, keepAlive: false })] }, quiet);
    const phase = result.phases[0]!.result;
    expect(phase.count).toBe(10);
    expect(phase.ok).toBe(0);
    expect(phase.connections).toBeUndefined();
  });
});
