import { connect } from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../contract/api.js';
import type { RunSummary } from '../../contract/results.js';
import { ServerStats } from '../../contract/servers.js';
import { rootPath } from '../paths.js';
import { startServer, type RunningServer } from '../supervisor/supervisor.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { skipUnless } from '../test-support/skip.js';
import { K6_PINNED, k6Status } from './k6-binary.js';
import { wsPeer, type WsPeer } from '../driver/transport/test-support/ws-peers.js';

// WebSocket sessions and gRPC calls through a real k6 (issue 41; skipped with the reason where none
// is installed), each scenario run through k6 and natively against the same bundled server: the
// stored runs agree on streams, messages sent and received, and error kinds, and both agree with the
// server's own count (its /__stats: WebSocket messages in and out, Fib calls worked). Hostile
// WebSocket peers (ws's own server: silent, flooding, cutting the session) end each k6 session as the
// native driver's kind, with the flood bounded at maxMessages. Counts only: nothing here depends on
// how fast the machine is.

const k6 = k6Status();
const temp = useTempEngine('k6-streams', 'all');

let servers: RunningServer[] = [];
let peers: WsPeer[] = [];
afterEach(async () => {
  await Promise.all([...servers.map((s) => s.stop()), ...peers.map((p) => p.close())]);
  servers = [];
  peers = [];
});

async function serve(spec: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const server = await startServer(spec);
  servers.push(server);
  return server;
}

async function run(engine: 'native' | 'k6', scenario: object, events: EngineEvent[] = []): Promise<RunSummary> {
  const off = temp.engine.subscribe((e) => events.push(e));
  try {
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {}, engine });
    await temp.engine.waitForRun(runId);
    return await temp.engine.handlers['runs:get']({ runId });
  } finally {
    off();
  }
}

/** The server's own count, asked over HTTP/1.1 or (an h2c front) HTTP/2. */
async function statsOf(url: string, h2c = false): Promise<ServerStats> {
  if (!h2c) return ServerStats.parse(await (await fetch(`${url}/__stats`)).json());
  const session = connect(url);
  try {
    const body = await new Promise<string>((resolve, reject) => {
      const req = session.request({ ':path': '/__stats' });
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (text += c));
      req.on('end', () => resolve(text));
      req.on('error', reject);
    });
    return ServerStats.parse(JSON.parse(body));
  } finally {
    session.close();
  }
}

const phasesOf = (r: RunSummary) => r.targets[0]!.phases;

describe(`k6 ${k6.version ?? K6_PINNED} and streams`, skipUnless(k6.available, k6.hint), () => {
  it('a WebSocket echo script and a subscription, through k6 and natively: equal sessions and messages, matching the server\'s own count, live and stored; rtt measured per matched reply', async () => {
    const server = await serve({ architecture: 'single', options: { concurrency: 0 } });
    const scenario = {
      name: 'ws-through-k6',
      servers: [{ architecture: 'external', url: server.url }],
      phases: [
        {
          name: 'echo', executor: 'closed', users: 2, count: 6, timeoutMs: 30_000,
          requests: [{ name: 'echo', path: '/ws/echo', stream: { protocol: 'ws', replyTimeoutMs: 20_000, script: [
            { send: '{"id":1}', expect: { path: 'id', equals: '1' } },
            { ping: true },
            { send: '{"id":2,"text":"again"}', expect: { includes: 'again' } },
          ] } }],
        },
        // five ticks, the last (seq 4) awaited: a subscription with a known count
        { name: 'feed', executor: 'closed', users: 2, count: 4, timeoutMs: 30_000, requests: [{ name: 'feed', path: '/ws/broadcast?ticks=5&gapMs=5&size=32', stream: { protocol: 'ws', replyTimeoutMs: 20_000, script: [{ expect: { path: 'seq', equals: '4' } }] } }] },
      ],
    };
    for (const engine of ['native', 'k6'] as const) {
      const before = (await statsOf(server.url)).webSockets!;
      const events: EngineEvent[] = [];
      const r = await run(engine, scenario, events);
      const after = (await statsOf(server.url)).webSockets!;
      expect(r.status, `${engine}: ${r.reason ?? ''}`).toBe('completed');
      const [echo, feed] = phasesOf(r);
      expect([echo!.count, echo!.ok, feed!.count, feed!.ok], engine).toEqual([6, 6, 4, 4]);
      expect([echo!.stream?.streams, echo!.stream?.sent, echo!.stream?.messages], engine).toEqual([6, 12, 12]);
      expect([feed!.stream?.streams, feed!.stream?.messages], engine).toEqual([4, 20]);
      // the server's own count: every message sent arrived, every one it sent was received
      expect(after.received - before.received, engine).toBe(echo!.stream!.sent);
      expect(after.sent - before.sent, engine).toBe(echo!.stream!.messages + feed!.stream!.messages);
      // a round trip per matched reply (not per tick), each within its session
      expect(echo!.stream?.rtt?.count, engine).toBe(12);
      expect(echo!.stream!.rtt!.max, engine).toBeLessThanOrEqual(echo!.total.max);
      expect(feed!.stream?.rtt?.count, engine).toBe(4);
      expect(echo!.stream?.ttfe?.count, engine).toBe(6);
      expect(feed!.stream?.gap?.count, engine).toBe(16);
      // per endpoint too
      expect(echo!.endpoints?.find((e) => e.name === 'echo')?.stream?.messages, engine).toBe(12);
      // and live: the messages reached the run's windows as they came
      const live = events.flatMap((e) => (e.event === 'run:window' && e.payload.runId === r.id ? [e.payload.stream?.messages ?? 0] : []));
      expect(live.reduce((a, b) => a + b, 0), engine).toBe(32);
    }
  });

  it('hostile WebSocket peers through k6 and natively: a silent one ends each session as idle, a flood as protocol at maxMessages, a cut session as stream', async () => {
    const peer = await wsPeer();
    peers.push(peer);
    const ws = (stream: object) => ({ protocol: 'ws', ...stream });
    const scenario = {
      name: 'ws-hostile-through-k6',
      servers: [{ architecture: 'external', url: peer.url.replace(/^ws/, 'http') }],
      phases: [
        { name: 'silent', executor: 'closed', users: 2, count: 2, timeoutMs: 60_000, requests: [{ path: '/silent', stream: ws({ script: [{ send: 'hello?', expect: { includes: 'x' }, timeoutMs: 300 }] }) }] },
        { name: 'flood', executor: 'closed', users: 2, count: 2, timeoutMs: 120_000, requests: [{ path: '/flood', stream: ws({ durationMs: 60_000, maxMessages: 200 }) }] },
        { name: 'cut', executor: 'closed', users: 1, count: 2, timeoutMs: 60_000, requests: [{ path: '/cut-after-1', stream: ws({ script: [{ send: 'a', expect: { includes: 'a' } }, { send: 'b', expect: { includes: 'b' } }] }) }] },
      ],
    };
    for (const engine of ['native', 'k6'] as const) {
      const r = await run(engine, scenario);
      expect(r.status, `${engine}: ${r.reason ?? ''}`).toBe('completed');
      const [silent, flood, cut] = phasesOf(r);
      expect([silent!.count, silent!.errors.idle], engine).toEqual([2, 2]);
      expect([flood!.count, flood!.errors.protocol, flood!.stream?.messages], engine).toEqual([2, 2, 400]);
      expect([cut!.count, cut!.errors.stream, cut!.stream?.messages], engine).toEqual([2, 2, 2]);
    }
  });

  it('gRPC unary and server-streaming calls and a status error, through k6 and natively: equal calls, messages and grpc errors, Fib calls matching the server\'s own count', async () => {
    const server = await serve({ architecture: 'single', options: { concurrency: 0, protocol: 'h2c' } });
    const proto = rootPath('scenarios/examples/grpc-bench.proto');
    const scenario = {
      name: 'grpc-through-k6',
      servers: [{ architecture: 'external', url: server.url, protocol: 'h2c' }],
      phases: [
        { name: 'fib', executor: 'closed', users: 2, count: 10, timeoutMs: 30_000, requests: [{ path: '/loadscope.Bench/Fib', body: '{"n": {{randomInt 5 12}}}', stream: { protocol: 'grpc', proto } }] },
        // n past the service's bound: INVALID_ARGUMENT, before any work
        { name: 'refused', executor: 'closed', users: 1, count: 3, timeoutMs: 30_000, requests: [{ path: '/loadscope.Bench/Fib', body: '{"n": 1000}', stream: { protocol: 'grpc', proto } }] },
        { name: 'ticks', executor: 'closed', users: 2, count: 4, timeoutMs: 30_000, requests: [{ path: '/loadscope.Bench/Ticks', body: '{"count": 5, "gap_ms": 5}', stream: { protocol: 'grpc', proto, messages: 5 } }] },
      ],
    };
    for (const engine of ['native', 'k6'] as const) {
      const before = await statsOf(server.url, true);
      const r = await run(engine, scenario);
      const after = await statsOf(server.url, true);
      expect(r.status, `${engine}: ${r.reason ?? ''}`).toBe('completed');
      const [fib, refused, ticks] = phasesOf(r);
      expect([fib!.count, fib!.ok, fib!.stream?.streams, fib!.stream?.messages], engine).toEqual([10, 10, 10, 10]);
      expect([refused!.count, refused!.errors.grpc, refused!.stream?.messages], engine).toEqual([3, 3, 0]);
      expect([ticks!.count, ticks!.ok, ticks!.stream?.messages], engine).toEqual([4, 4, 20]);
      expect(ticks!.stream?.ttfe?.count, engine).toBe(4);
      expect(ticks!.stream?.gap?.count, engine).toBe(16);
      // the server worked exactly the Fib calls that were valid
      expect(after.handled - before.handled, engine).toBe(fib!.count);
    }
  });
});
