import { createSecureServer, createServer as createH2cServer, type Http2SecureServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTransport } from '../../../servers/front-transport.js';
import { startServer, stopAll } from '../../../servers/test-support/servers.js';
import { runDriver } from '../driver.js';
import { closed, rate } from '../test-support/phases.js';

// The driver over h2 (ALPN over TLS) and h2c (prior knowledge) against real bundled servers on
// 127.0.0.1 (from dist/: npx tsc -p tsconfig.node.json). What was negotiated is learnt before the
// load; the closed and open models, Server-Timing's split and lag work as over HTTP/1.1.

let h2Only: Http2SecureServer | null = null;
let h2c: Http2Server | null = null;
afterEach(async () => {
  await stopAll();
  h2Only?.close();
  h2Only = null;
  h2c?.close();
  h2c = null;
});

const quiet = {};

describe('HTTP/2 on the driver', () => {
  it('h2 only (no HTTP/1.1 at all): every request a stream, `streams` of them per connection', async () => {
    const { tls } = await makeTransport('h2');
    let sessions = 0;
    let streams = 0;
    h2Only = createSecureServer({ ...tls!, allowHTTP1: false }, (_req, res) => {
      streams++;
      res.end('ok');
    });
    h2Only.on('session', () => sessions++);
    await new Promise<void>((resolve) => h2Only!.listen(0, '127.0.0.1', resolve));
    const port = (h2Only.address() as AddressInfo).port;
    const result = await runDriver({ baseUrl: `https://127.0.0.1:${port}`, tls: { insecure: false, ca: tls!.cert }, protocol: 'h2', streams: 4, phases: [closed(8, { count: 80 })] }, quiet);
    expect(result.protocol).toBe('h2');
    expect(result.phases[0]!.result.ok).toBe(80);
    expect(streams).toBe(80);
    // 8 users, 4 streams per connection: two connections (and the probe's own one)
    expect(sessions).toBe(3);
  });

  it('h2 by ALPN: negotiated h2, Server-Timing split intact', async () => {
    const server = await startServer('single', { protocol: 'h2' });
    const result = await runDriver(
      { baseUrl: server.url, tls: { insecure: false, ca: server.cert! }, protocol: 'h2', streams: 4, phases: [closed(4, { count: 40 }, '/fib?n=12')] },
      quiet,
    );
    expect(result.protocol).toBe('h2');
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(40);
    expect(phase.processing?.p50).toBeGreaterThan(0);
    expect(phase.wait).not.toBeNull();
  });

  it('the open model over h2: a rate phase keeps its schedule figures (lag) and Server-Timing', async () => {
    const server = await startServer('single', { protocol: 'h2' });
    const result = await runDriver({ baseUrl: server.url, tls: { insecure: false, ca: server.cert! }, protocol: 'h2', streams: 8, phases: [rate(100, 500, '/fib?n=10')] }, quiet);
    expect(result.protocol).toBe('h2');
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(50);
    expect(phase.lag.count).toBe(50);
    expect(phase.processing?.p50).toBeGreaterThan(0);
  });

  it('h2c by prior knowledge: negotiated h2c (an HTTP/1.1 client gets no answer from this server)', async () => {
    const server = await startServer('single', { protocol: 'h2c' });
    const result = await runDriver({ baseUrl: server.url, protocol: 'h2c', phases: [closed(2, { count: 20 }, '/fib?n=12')] }, quiet);
    expect(result.protocol).toBe('h2c');
    const phase = result.phases[0]!.result;
    expect(phase.ok).toBe(20);
    expect(phase.processing?.p50).toBeGreaterThan(0);
  });

  it('h1 to an h2 server over TLS: ALPN says http/1.1, and it is stated so', async () => {
    const server = await startServer('single', { protocol: 'h2' });
    const result = await runDriver({ baseUrl: server.url, tls: { insecure: false, ca: server.cert! }, phases: [closed(2, { count: 10 }, '/fib?n=12')] }, quiet);
    expect(result.protocol).toBe('h1-tls');
    expect(result.phases[0]!.result.ok).toBe(10);
  });

  it('h2c with preconnect: no HTTP/1.1 connections are opened ahead, the users share `streams` per connection', async () => {
    let connections = 0;
    h2c = createH2cServer((_req, res) => res.end('ok'));
    h2c.on('connection', () => connections++);
    await new Promise<void>((resolve) => h2c!.listen(0, '127.0.0.1', resolve));
    const port = (h2c.address() as AddressInfo).port;
    const result = await runDriver({ baseUrl: `http://127.0.0.1:${port}`, protocol: 'h2c', streams: 4, phases: [closed(4, { count: 20, preconnect: true })] }, quiet);
    expect(result.phases[0]!.result.ok).toBe(20);
    // one for the probe, one shared by the four users
    expect(connections).toBe(2);
  });
});
