import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEALTH_PROTO, HOSTILE_PROTO, startGrpcPeer, type GrpcPeer } from '../driver/transport/test-support/grpc-peers.js';
import { stopAll } from '../../servers/test-support/servers.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// Whole gRPC runs as `loadscope run file.json` starts them (real SQLite store, the driver's worker
// from dist/, servers on 127.0.0.1): the bundled service's unary and streaming calls with their
// stream figures; grpc-health-check's Health service (a server no one here wrote), whose own count of
// calls matches the run's; hostile peers (never answers, a huge reply, an endless stream, a status
// other than OK) end the run cleanly with each failure counted under its kind; a scenario whose
// .proto or method is wrong is refused before load with the JSON path; Try once refuses a gRPC call
// in one line instead of sending it as HTTP (which crashed undici's h2 client).

const temp = useTempEngine('grpc');
let dir = '';
const peers: GrpcPeer[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-grpc-'));
});
afterEach(async () => {
  await stopAll();
  for (const p of peers.splice(0)) await p.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(scenario: Record<string, unknown>) {
  const text = JSON.stringify({ name: 'grpc', ...scenario });
  const file = join(dir, 'grpc.json');
  writeFileSync(file, text);
  const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {} });
  await temp.engine.waitForRun(runId);
  return temp.engine.handlers['runs:get']({ runId });
}

async function peer(options: Parameters<typeof startGrpcPeer>[0] = {}): Promise<GrpcPeer> {
  const p = await startGrpcPeer(options);
  peers.push(p);
  return p;
}

const grpc = (proto: string, extra: Record<string, unknown> = {}) => ({ protocol: 'grpc', proto, ...extra });

describe('gRPC runs', () => {
  it('the bundled service on h2c: unary Fib at a rate and streams of ticks, named service/method, every tick a message', async () => {
    const result = await run({
      servers: [{ architecture: 'single', options: { protocol: 'h2c' } }],
      phases: [
        { name: 'fib', executor: 'burst', count: 20, requests: [{ path: '/loadscope.Bench/Fib', body: '{"n": {{randomInt 5 15}}}', stream: grpc(join(process.cwd(), 'scenarios/examples/grpc-bench.proto')) }] },
        { name: 'ticks', executor: 'closed', users: 3, count: 6, requests: [{ path: '/loadscope.Bench/Ticks', body: '{"count": 5, "gap_ms": 5}', stream: grpc(join(process.cwd(), 'scenarios/examples/grpc-bench.proto')) }] },
      ],
    });
    expect(result.status, result.reason ?? '').toBe('completed');
    const [fib, ticks] = result.targets[0]!.phases;
    expect(fib!.ok).toBe(20);
    expect(fib!.endpoints?.map((e) => e.name)).toEqual(['loadscope.Bench/Fib']);
    expect(fib!.stream?.messages).toBe(20);
    expect(ticks!.ok).toBe(6);
    expect(ticks!.stream?.messages).toBe(30);
    expect(ticks!.stream?.gap?.count).toBe(24);
  });

  it('the bundled service over h2 (TLS): each call verified against the certificate the server made, as the HTTP transports verify it', async () => {
    const result = await run({
      servers: [{ architecture: 'single', options: { protocol: 'h2' } }],
      phases: [{ executor: 'burst', count: 5, requests: [{ path: '/loadscope.Bench/Fib', body: '{"n": 10}', stream: grpc(join(process.cwd(), 'scenarios/examples/grpc-bench.proto')) }] }],
    });
    expect(result.status, result.reason ?? '').toBe('completed');
    const phase = result.targets[0]!.phases[0]!;
    expect(phase.errorReasons ?? []).toEqual([]);
    expect(phase.ok).toBe(5);
  });

  it("grpc-health-check's Health service: 30 Check calls made, 30 counted by the server, 30 replies as messages", async () => {
    const p = await peer({ withHealth: true });
    const result = await run({
      servers: [{ architecture: 'external', url: p.url, protocol: 'h2c' }],
      phases: [{ executor: 'closed', users: 3, count: 30, requests: [{ path: '/grpc.health.v1.Health/Check', body: '{"service": ""}', stream: grpc(HEALTH_PROTO) }] }],
    });
    expect(result.status, result.reason ?? '').toBe('completed');
    const phase = result.targets[0]!.phases[0]!;
    expect(phase.ok).toBe(30);
    expect(phase.stream?.messages).toBe(30);
    expect(p.calls()).toBe(30);
  });

  it('hostile peers: never answers, a 8 MiB reply over a 1 MiB bound, an endless stream, PERMISSION_DENIED: each counted under its kind, the run completes', async () => {
    const p = await peer({ hugeBytes: 8 * 1024 * 1024 });
    writeFileSync(join(dir, 'hostile.proto'), HOSTILE_PROTO);
    const stream = (extra: Record<string, unknown> = {}) => grpc('hostile.proto', extra);
    const result = await run({
      servers: [{ architecture: 'external', url: p.url, protocol: 'h2c' }],
      phases: [
        { name: 'never', executor: 'burst', count: 2, timeoutMs: 500, requests: [{ path: '/hostile.Peer/Never', stream: stream() }] },
        { name: 'huge', executor: 'burst', count: 2, requests: [{ path: '/hostile.Peer/Huge', stream: stream({ maxMessageBytes: 1024 * 1024 }) }] },
        { name: 'endless', executor: 'burst', count: 2, requests: [{ path: '/hostile.Peer/Endless', stream: stream({ messages: 500 }) }] },
        { name: 'endless, no bound', executor: 'burst', count: 2, timeoutMs: 500, requests: [{ path: '/hostile.Peer/Endless', stream: stream() }] },
        { name: 'denied', executor: 'burst', count: 2, requests: [{ path: '/hostile.Peer/Denied', stream: stream() }] },
      ],
    });
    expect(result.status, result.reason ?? '').toBe('completed');
    const [never, huge, endless, unbounded, denied] = result.targets[0]!.phases;
    expect(never!.errors.timeout).toBe(2);
    expect(huge!.errors.protocol).toBe(2);
    expect(endless!.ok).toBe(2);
    expect(endless!.stream?.messages).toBe(1000);
    expect(unbounded!.errors.timeout).toBe(2);
    expect(denied!.errors.grpc).toBe(2);
    expect(denied!.errorReasons).toEqual([expect.objectContaining({ kind: 'grpc', reason: expect.stringContaining('grpc PERMISSION_DENIED: no entry') as unknown, count: 2 })]);
  });

  it('a wrong .proto, method or message, and a bundled server over HTTP/1.1: refused before load, each at its JSON path', async () => {
    // not a .proto: its words must not come back in the error (a scenario may name any file)
    writeFileSync(join(dir, 'bad.proto'), 'root:SECRET-HASH:0:0\nsyntax = "proto3"; service {');
    writeFileSync(join(dir, 'hostile.proto'), HOSTILE_PROTO);
    const result = run({
      servers: [{ architecture: 'single' }, { architecture: 'external', url: 'http://127.0.0.1:1' }],
      phases: [
        {
          executor: 'burst',
          count: 1,
          requests: [
            { name: 'missing', path: '/hostile.Peer/Never', stream: grpc('missing.proto') },
            { name: 'bad', path: '/hostile.Peer/Never', stream: grpc('bad.proto') },
            { name: 'nope', path: '/hostile.Peer/Nope', stream: grpc('hostile.proto') },
            { name: 'not json', path: '/hostile.Peer/Huge', body: '{"data": 5', stream: grpc('hostile.proto') },
            { name: 'bad metadata', path: '/hostile.Peer/Huge', headers: { 'x token': 'a' }, stream: grpc('hostile.proto') },
          ],
        },
      ],
    });
    const err = (await result.catch((e: unknown) => e)) as { issues?: { path: string; message: string }[] };
    expect(err.issues?.map((i) => i.path)).toEqual([
      'servers[0].options.protocol',
      'servers[1].protocol',
      'phases[0].requests[0].stream.proto',
      'phases[0].requests[1].stream.proto',
      'phases[0].requests[2].path',
      'phases[0].requests[3].body',
      'phases[0].requests[4].headers.x token',
    ]);
    expect(err.issues?.[0]?.message).toMatch(/^gRPC needs HTTP\/2/);
    expect(err.issues?.[1]?.message).toMatch(/protocol 'h2c'/);
    expect(err.issues?.[2]?.message).toMatch(/missing\.proto does not exist$/);
    expect(err.issues?.[3]?.message).toMatch(/bad\.proto is not a \.proto file grpc can read \(stopped at line 1\)$/);
    expect(err.issues?.[3]?.message).not.toMatch(/SECRET|root/);
    expect(err.issues?.[4]?.message).toBe("service 'hostile.Peer' has no method 'Nope'; it has Never, Huge, Endless, Denied");
    expect(err.issues?.[5]?.message).toMatch(/is not JSON$/);
  });

  it('Try once on a gRPC scenario: refused in one line naming the stream, before anything is sent (sent as HTTP, it crashed undici)', async () => {
    const text = JSON.stringify({
      name: 'grpc-try',
      servers: [{ architecture: 'single', options: { protocol: 'h2c' } }],
      phases: [{ executor: 'burst', count: 1, requests: [{ path: '/loadscope.Bench/Fib', body: '{"n": 5}', stream: grpc(join(process.cwd(), 'scenarios/examples/grpc-bench.proto')) }] }],
    });
    await expect(temp.engine.handlers['scenarios:try']({ scenario: { text }, quick: false, set: {}, server: 0 })).rejects.toThrow(/^phases\[0\]\.requests\[0\]\.stream: Try once shows one request/);
  });
});
