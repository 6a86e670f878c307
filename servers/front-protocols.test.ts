import { afterEach, describe, expect, it } from 'vitest';
import type { ArchitectureOptions } from '../contract/servers.js';
import { getH2, getHttps } from './test-support/over.js';
import { startServer, stopAll, type ArchitectureCase } from './test-support/servers.js';

// Every architecture served over https, h2 (ALPN, with HTTP/1.1 beside it) and h2c, started from
// dist/ as a real process (build first: npx tsc -p tsconfig.node.json). The self-signed certificate
// made at start verifies against itself and not against the system's CAs; Server-Timing is intact.

afterEach(stopAll);

const cases: ArchitectureCase[] = [
  { name: 'single', architecture: 'single', options: {} },
  { name: 'cluster', architecture: 'cluster', options: { workers: 2 } },
  { name: 'autoscale', architecture: 'autoscale', options: { initial: 1, max: 2 } },
  { name: 'offload', architecture: 'offload', options: { workers: 1 } },
  { name: 'offload, HTTP workers', architecture: 'offload', options: { workers: 1, httpWorkers: 2 } },
  { name: 'thread-per-request', architecture: 'thread-per-request', options: { buckets: 4 } },
  { name: 'thread-pool', architecture: 'thread-pool', options: { threads: 1, buckets: 4 } },
];

describe.each(cases)('$name', ({ architecture, options }) => {
  it('https: a self-signed certificate made at start, verified against itself, Server-Timing unchanged', async () => {
    const server = await startServer(architecture, { ...options, protocol: 'h1-tls' } as Partial<ArchitectureOptions[typeof architecture]>);
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    await expect(getHttps(`${server.url}/fib?n=20`)).rejects.toThrow(/self[- ]signed/i);
    const first = await getHttps(`${server.url}/fib?n=20`, server.cert);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ n: 20, value: 6765 });
    expect(first.timing?.procMs).toBeGreaterThan(0);
    expect(first.timing?.waitMs).toBeGreaterThanOrEqual(0);
    // a second connection (another cluster worker, maybe) shows the same certificate
    const second = await getHttps(`${server.url}/fib?n=20`, server.cert);
    expect(second.fingerprint).toBe(first.fingerprint);
  });

  it('h2: negotiated by ALPN (HTTP/1.1 clients still served), Server-Timing unchanged', async () => {
    const server = await startServer(architecture, { ...options, protocol: 'h2' } as Partial<ArchitectureOptions[typeof architecture]>);
    await expect(getH2(`${server.url}/fib?n=20`)).rejects.toThrow(/self[- ]signed/i);
    const h2 = await getH2(`${server.url}/fib?n=20`, server.cert);
    expect(h2.alpn).toBe('h2');
    expect(h2.status).toBe(200);
    expect(JSON.parse(h2.text)).toEqual({ n: 20, value: 6765 });
    expect(h2.timing?.procMs).toBeGreaterThan(0);
    const h1 = await getHttps(`${server.url}/sleep?ms=5`, server.cert);
    expect(h1.alpn).toBe('http/1.1');
    expect(h1.status).toBe(200);
    expect(h1.timing?.procMs).toBeGreaterThan(0);
  });

  it('h2c: h2 with prior knowledge on plain TCP, no certificate, Server-Timing unchanged', async () => {
    const server = await startServer(architecture, { ...options, protocol: 'h2c' } as Partial<ArchitectureOptions[typeof architecture]>);
    expect(server.url).toMatch(/^http:\/\//);
    expect(server.cert).toBeUndefined();
    const h2c = await getH2(`${server.url}/fib?n=20`);
    expect(h2c.status).toBe(200);
    expect(JSON.parse(h2c.text)).toEqual({ n: 20, value: 6765 });
    expect(h2c.timing?.procMs).toBeGreaterThan(0);
    expect(h2c.timing?.waitMs).toBeGreaterThanOrEqual(0);
  });
});
