import { status } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFront, closeFront, listen, type FrontServer } from '../../../servers/http-front.js';
import { InProcessDispatcher } from '../../../servers/in-process.js';
import { rootPath } from '../../paths.js';
import { grpcMethodOf, type GrpcMethod } from '../../grpc-proto.js';
import type { RequestHandler } from './connection.js';
import { GrpcConnection, type GrpcCall } from './grpc-connection.js';
import { GRPC_STATUS } from './grpc-errors.js';
import { targetOf } from './target.js';
import { HEALTH_PROTO, PEER_PATHS, startGrpcPeer, type GrpcPeer } from './test-support/grpc-peers.js';

// The gRPC connection against real servers on 127.0.0.1: the bundled service (servers/grpc-front.ts
// on an h2c front), grpc-health-check's Health service (a server no one here wrote, whose own count of
// calls must match the calls made), and hostile peers: one that never answers ends at the call's
// deadline, a reply past the message bound is refused unread, an endless stream is cut at its message
// or time bound (or fails at its deadline), a status other than OK is an error naming it, a refused
// connect and an address outside this machine fail without load.

interface Outcome {
  headers: boolean;
  /** messages handed on, and the first of them */
  count: number;
  first: Buffer | null;
  bytes: number;
  error: (Error & { code?: string }) | null;
}

/** Sends `call` on `conn`; resolves once it completes or fails (keeps the first message only). */
function send(conn: GrpcConnection, call: GrpcCall): Promise<Outcome> {
  return new Promise((resolve) => {
    const out: Outcome = { headers: false, count: 0, first: null, bytes: 0, error: null };
    const handler: RequestHandler = {
      onConnect: () => undefined,
      onHeaders: () => ((out.headers = true), true),
      onData: (chunk) => {
        out.count++;
        out.bytes += chunk.length;
        out.first ??= chunk;
        return true;
      },
      onComplete: () => resolve(out),
      onError: (err) => resolve({ ...out, error: err as Error & { code?: string } }),
    };
    conn.dispatch(call, handler);
  });
}

function call(method: GrpcMethod, message: unknown, over: Partial<GrpcCall> = {}): GrpcCall {
  return { path: method.path, message: method.serialize(message), streaming: method.streaming, maxMessages: 1000, holdMs: 0, deadlineMs: 20_000, metadata: [], ...over };
}

function methodOf(proto: string, name: string): GrpcMethod {
  const found = grpcMethodOf(proto, name);
  if ('refused' in found) throw new Error(found.refused);
  return found.method;
}

const BLOB = { path: '', message: Buffer.alloc(0), streaming: false, maxMessages: 1000, holdMs: 0, deadlineMs: 20_000, metadata: [] } satisfies GrpcCall;
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

function connectTo(url: string, maxReceiveBytes = 4 * 1024 * 1024): GrpcConnection {
  const conn = new GrpcConnection(targetOf({ baseUrl: url }), { maxReceiveBytes });
  open.push(conn);
  return conn;
}

async function peer(options: Parameters<typeof startGrpcPeer>[0] = {}): Promise<GrpcPeer> {
  const p = await startGrpcPeer(options);
  open.push(p);
  return p;
}

it("the status table the driver keeps without loading grpc-js: grpc-js's own numbers, all of them", () => {
  const theirs = Object.fromEntries(Object.entries(status).filter(([, v]) => typeof v === 'number'));
  expect(GRPC_STATUS).toEqual(theirs);
});

describe('the bundled gRPC service', () => {
  const BENCH = rootPath('scenarios/examples/grpc-bench.proto');

  async function bundled(): Promise<string> {
    const server: FrontServer = createFront(new InProcessDispatcher(0, (c) => c.toStats('single', 1, 0)), { protocol: 'h2c' });
    open.push({ close: () => closeFront(server) });
    const port = await listen(server, { host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${port}`;
  }

  it('a unary Fib through the h2c front: one reply with fib(n), its headers seen before it', async () => {
    const conn = connectTo(await bundled());
    const fib = methodOf(BENCH, 'loadscope.Bench/Fib');
    const out = await send(conn, call(fib, { n: 20 }));
    expect(out.error).toBeNull();
    expect(out.headers).toBe(true);
    expect(out.count).toBe(1);
    // FibReply: n = 20 (field 1 varint), value = "6765" (field 2, length-delimited)
    expect(out.first).toEqual(Buffer.from([0x08, 20, 0x12, 4, ...Buffer.from('6765')]));
  });

  it('a server-streaming Ticks of 5: five messages, then a clean end', async () => {
    const conn = connectTo(await bundled());
    const out = await send(conn, call(methodOf(BENCH, 'loadscope.Bench/Ticks'), { count: 5, gap_ms: 1, size: 10 }));
    expect(out.error).toBeNull();
    expect(out.count).toBe(5);
  });

  it('a Fib with n past the bound: INVALID_ARGUMENT, a grpc error naming the status', async () => {
    const conn = connectTo(await bundled());
    const out = await send(conn, call(methodOf(BENCH, 'loadscope.Bench/Fib'), { n: 99 }));
    expect(out.error?.code).toBe('LS_GRPC_STATUS');
    expect(out.error?.message).toMatch(/^grpc INVALID_ARGUMENT: n must be 0 to 45$/);
  });
});

describe('a server no one here wrote: grpc-health-check', () => {
  it('20 Check calls on one channel: 20 replies, and the server counted 20 calls', async () => {
    const p = await peer({ withHealth: true });
    const conn = connectTo(p.url);
    const check = methodOf(HEALTH_PROTO, 'grpc.health.v1.Health/Check');
    const outs = await Promise.all(Array.from({ length: 20 }, () => send(conn, call(check, { service: '' }))));
    expect(outs.map((o) => o.error)).toEqual(Array(20).fill(null));
    expect(outs.map((o) => o.count)).toEqual(Array(20).fill(1));
    expect(p.calls()).toBe(20);
  });

  it('a Watch stream bounded to 3 messages: the server sends one per status change, the stream ends clean at 3', async () => {
    const p = await peer({ withHealth: true });
    const conn = connectTo(p.url);
    const watch = methodOf(HEALTH_PROTO, 'grpc.health.v1.Health/Watch');
    expect(watch.streaming).toBe(true);
    const seen: number[] = [];
    const done = new Promise<Error | null>((resolve) => {
      conn.dispatch(call(watch, { service: '' }, { maxMessages: 3 }), {
        onConnect: () => undefined,
        onHeaders: () => true,
        onData: () => {
          seen.push(seen.length + 1);
          // the next status change only once this one arrived: each is one message
          p.health!.setStatus('', seen.length % 2 === 1 ? 'NOT_SERVING' : 'SERVING');
          return true;
        },
        onComplete: () => resolve(null),
        onError: (err) => resolve(err),
      });
    });
    expect(await done).toBeNull();
    expect(seen).toEqual([1, 2, 3]);
    expect(p.calls()).toBe(1);
  });
});

describe('hostile gRPC peers', () => {
  it('a server that never answers: the call fails at its deadline as ETIMEDOUT (grpc DEADLINE_EXCEEDED)', async () => {
    const p = await peer();
    const out = await send(connectTo(p.url), { ...BLOB, path: PEER_PATHS.never, deadlineMs: 300 });
    expect(out.error?.code).toBe('ETIMEDOUT');
    expect(out.error?.message).toMatch(/^grpc DEADLINE_EXCEEDED/);
  });

  it('a reply of 8 MiB to a client bounded at 1 MiB: refused as over the bound, no message handed on', async () => {
    const p = await peer({ hugeBytes: 8 * 1024 * 1024 });
    const out = await send(connectTo(p.url, 1024 * 1024), { ...BLOB, path: PEER_PATHS.huge });
    expect(out.error?.code).toBe('LS_STREAM_OVER_BOUND');
    expect(out.bytes).toBe(0);
  });

  it('an endless stream bounded to 200 messages: a clean end at 200, and the server stops writing', async () => {
    const p = await peer();
    const out = await send(connectTo(p.url), { ...BLOB, path: PEER_PATHS.endless, streaming: true, maxMessages: 200 });
    expect(out.error).toBeNull();
    expect(out.count).toBe(200);
    // cancelled: the server's writes stop (bounded by what flow control let it queue before the cancel)
    await expect.poll(() => { const before = p.endlessWritten(); return new Promise((r) => setImmediate(() => r(p.endlessWritten() - before))); }, { timeout: 10_000 }).toBe(0);
  });

  it('an endless stream held for 200 ms: a clean end when the hold is over', async () => {
    const p = await peer();
    const out = await send(connectTo(p.url), { ...BLOB, path: PEER_PATHS.endless, streaming: true, maxMessages: Number.MAX_SAFE_INTEGER, holdMs: 200 });
    expect(out.error).toBeNull();
    expect(out.bytes).toBeGreaterThan(0);
  });

  it('an endless stream with no bound but its deadline: fails as ETIMEDOUT at the deadline', async () => {
    const p = await peer();
    const out = await send(connectTo(p.url), { ...BLOB, path: PEER_PATHS.endless, streaming: true, maxMessages: Number.MAX_SAFE_INTEGER, deadlineMs: 300 });
    expect(out.error?.code).toBe('ETIMEDOUT');
  });

  it('a server that answers PERMISSION_DENIED: a grpc error naming the status and its details', async () => {
    const p = await peer();
    const out = await send(connectTo(p.url), { ...BLOB, path: PEER_PATHS.denied });
    expect(out.error?.code).toBe('LS_GRPC_STATUS');
    expect(out.error?.message).toBe('grpc PERMISSION_DENIED: no entry');
  });

  it('metadata grpc refuses (a name with a space): the call fails with one line, nothing thrown', async () => {
    const p = await peer();
    const out = await send(connectTo(p.url), { ...BLOB, path: PEER_PATHS.denied, metadata: [['x token', 'a']] });
    expect(out.error?.code).toBe('LS_GRPC_CALL');
    expect(out.error?.message).toMatch(/^metadata refused: /);
    expect(p.calls()).toBe(0);
  });

  it('a port nobody listens on: the call fails as ECONNREFUSED', async () => {
    const p = await peer();
    const url = p.url;
    await p.close();
    const out = await send(connectTo(url), { ...BLOB, path: PEER_PATHS.denied });
    expect(out.error?.code).toBe('ECONNREFUSED');
  });

  it('a target outside this machine without consent: refused by the guard before any packet', async () => {
    const out = await send(connectTo('http://10.255.255.1:50051'), { ...BLOB, path: PEER_PATHS.denied });
    expect(out.error?.code).toBe('LS_ERR_NOT_LOOPBACK');
  });

  it('a call dropped by destroy(err): fails with that error, as the group asked', async () => {
    const p = await peer();
    const conn = connectTo(p.url);
    const pending = send(conn, { ...BLOB, path: PEER_PATHS.never });
    await expect.poll(() => p.calls()).toBe(1);
    const why = Object.assign(new Error('deadline'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    conn.destroy(why);
    expect((await pending).error).toBe(why);
  });
});
