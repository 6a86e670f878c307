import { credentials, loadPackageDefinition, type ChannelCredentials, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchitectureOptions } from '../contract/servers.js';
import { fileURLToPath } from 'node:url';
import { startServer, stopAll, type ArchitectureCase } from './test-support/servers.js';

// The bundled gRPC service (servers/grpc-front.ts) on every architecture's h2c front, started from
// dist/ as a real process, called by grpc-js's own client from the example's .proto (so the
// service's built-in definition and the .proto a scenario names agree): Fib worked where the
// architecture runs its work, Ticks streamed from the front; over h2 with the server's certificate;
// and an HTTP/1.1 front, which cannot carry gRPC, fails the call instead of hanging.

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

type Bench = Client & {
  Fib(m: { n: number }, o: { deadline: number }, cb: (err: ServiceError | null, r?: { n: number; value: string }) => void): void;
  Ticks(m: { count: number; gap_ms: number; size: number }, o: { deadline: number }): NodeJS.EventEmitter;
};

function benchClient(url: string, creds: ChannelCredentials = credentials.createInsecure()): Bench {
  const definition = loadSync(fileURLToPath(new URL('../scenarios/examples/grpc-bench.proto', import.meta.url)), { keepCase: true, defaults: true });
  const loadscope = loadPackageDefinition(definition)['loadscope'] as unknown as { Bench: new (address: string, c: ChannelCredentials) => Bench };
  return new loadscope.Bench(new URL(url).host, creds);
}

const deadline = (): { deadline: number } => ({ deadline: Date.now() + 20_000 });

function fib(client: Bench, n: number): Promise<{ n: number; value: string }> {
  return new Promise((resolve, reject) => client.Fib({ n }, deadline(), (err, reply) => (err ? reject(err) : resolve(reply!))));
}

function ticks(client: Bench, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const seqs: number[] = [];
    const stream = client.Ticks({ count, gap_ms: 1, size: 8 }, deadline());
    stream.on('data', (t: { seq: number }) => seqs.push(t.seq));
    stream.on('error', reject);
    stream.on('end', () => resolve(seqs));
  });
}

describe.each(cases)('$name', ({ architecture, options }) => {
  it('h2c: a unary Fib worked where the architecture works, and a stream of 3 ticks in order', async () => {
    const server = await startServer(architecture, { ...options, protocol: 'h2c' } as Partial<ArchitectureOptions[typeof architecture]>);
    const client = benchClient(server.url);
    try {
      expect(await fib(client, 20)).toEqual({ n: 20, value: '6765' });
      expect(await ticks(client, 3)).toEqual([1, 2, 3]);
    } finally {
      client.close();
    }
  });
});

describe('single, beyond h2c', () => {
  it('h2: the same service over TLS, verified against the certificate the server made at start', async () => {
    const server = await startServer('single', { protocol: 'h2' });
    const client = benchClient(server.url, credentials.createSsl(Buffer.from(server.cert!)));
    try {
      expect(await fib(client, 10)).toEqual({ n: 10, value: '55' });
    } finally {
      client.close();
    }
  });

  it('a bad argument: n past the bound is INVALID_ARGUMENT with the bound in its details', async () => {
    const server = await startServer('single', { protocol: 'h2c' });
    const client = benchClient(server.url);
    try {
      await expect(fib(client, 46)).rejects.toMatchObject({ code: 3, details: 'n must be 0 to 45' });
    } finally {
      client.close();
    }
  });

  it('an HTTP/1.1 front: the gRPC call fails (UNAVAILABLE or INTERNAL) instead of hanging', async () => {
    const server = await startServer('single', {});
    const client = benchClient(server.url);
    try {
      const err = (await fib(client, 10).catch((e: unknown) => e)) as ServiceError;
      expect([13, 14]).toContain(err.code);
    } finally {
      client.close();
    }
  });
});
