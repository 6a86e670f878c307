import { afterEach, describe, expect, it } from 'vitest';
import { WsStream } from '../../../contract/stream-ws.js';
import { burst, closed, collect, req } from '../test-support/phases.js';
import { wsPeer, type WsPeer } from './test-support/ws-peers.js';

// WebSocket sessions as the driver's stream requests (transport/ws.ts through the stream frame),
// run by the real driver against ws's own WebSocketServer (a server no one here wrote): the phase's
// stream figures agree with the server's own counts (messages sent and received, a round trip per
// matched reply), and a peer that floods or goes silent ends each session as its error kind while
// the phase ends on time with every session recorded.

let peer: WsPeer | null = null;
afterEach(async () => {
  await peer?.close();
  peer = null;
});

const ws = (block: Omit<Partial<WsStream>, 'protocol'>) => WsStream.parse({ protocol: 'ws', ...block });
const httpOf = (p: WsPeer): string => p.url.replace('ws://', 'http://');
/** the error kinds that occurred */
const errorsOf = (e: Partial<Record<string, number>>): Record<string, number> => Object.fromEntries(Object.entries(e).filter(([, n]) => (n ?? 0) > 0)) as Record<string, number>;

describe('WebSocket sessions under the driver', () => {
  it("a burst of scripted sessions against ws's own server: messages, sends and round trips are the server's own counts", async () => {
    peer = await wsPeer();
    const script = [1, 2, 3].map((i) => ({ send: `{"n":${i}}`, expect: { path: 'n', equals: String(i) } }));
    const phase = burst(2, '/echo', { clients: 4, requests: [req('/echo', { stream: ws({ script }) })] });
    const { result } = await collect(httpOf(peer), [phase]);
    const p = result.phases[0]!.result;
    expect(errorsOf(p.errors)).toEqual({});
    expect(p.count).toBe(8);
    expect(p.stream?.streams).toBe(8);
    expect(p.stream?.sent).toBe(peer.counts.received);
    expect(p.stream?.messages).toBe(peer.counts.sent);
    expect(peer.counts.received).toBe(24);
    expect(p.stream?.rtt?.count).toBe(24);
    expect(p.stream?.ttfe?.count).toBe(8);
  });

  it('a path that would name another host (//127.0.0.1:1/echo): sent to the target as a path, never to that host', async () => {
    peer = await wsPeer();
    const phase = burst(2, '/echo', { requests: [req('//127.0.0.1:1/echo', { stream: ws({ script: [{ send: 'here', expect: { includes: 'here' } }] }) })] });
    const { result } = await collect(httpOf(peer), [phase]);
    expect(errorsOf(result.phases[0]!.result.errors)).toEqual({});
    expect(peer.counts.received).toBe(2);
  });

  it('closed users holding subscriptions: every tick the server sent is counted, with its gaps', async () => {
    peer = await wsPeer();
    const phase = closed(3, { durationMs: 300, requests: [req('/ticks?n=10&gapMs=5', { stream: ws({ script: [{ expect: { path: 'seq', equals: '9' } }] }) })] });
    const { result } = await collect(httpOf(peer), [phase]);
    const p = result.phases[0]!.result;
    expect(errorsOf(p.errors)).toEqual({});
    expect(p.stream?.messages).toBe(peer.counts.sent);
    expect(p.stream?.messages).toBe(p.count * 10);
    expect(p.stream?.gap?.count).toBe(p.count * 9);
  });

  it('a flooding server: each session ends at maxMessages as a protocol error, the phase ends with all recorded', async () => {
    peer = await wsPeer();
    const phase = burst(1, '/flood', { clients: 3, requests: [req('/flood', { stream: ws({ durationMs: 60_000, maxMessages: 200 }) })], timeoutMs: 120_000 });
    const { result } = await collect(httpOf(peer), [phase]);
    const p = result.phases[0]!.result;
    expect(errorsOf(p.errors)).toEqual({ protocol: 3 });
    expect(p.stream?.messages).toBe(600);
  });

  it('a silent server and a phase deadline under the session: each session fails as a timeout at timeoutMs', async () => {
    peer = await wsPeer();
    const phase = burst(1, '/silent', { clients: 2, timeoutMs: 400, requests: [req('/silent', { stream: ws({ script: [{ send: 'hello?', expect: { includes: 'x' } }], replyTimeoutMs: 60_000 }) })] });
    const { result } = await collect(httpOf(peer), [phase]);
    expect(errorsOf(result.phases[0]!.result.errors)).toEqual({ timeout: 2 });
  });

  it('a silent server and a reply wait under the deadline: each session fails as idle', async () => {
    peer = await wsPeer();
    const phase = burst(1, '/silent', { clients: 2, requests: [req('/silent', { stream: ws({ script: [{ send: 'hello?', expect: { includes: 'x' }, timeoutMs: 300 }] }) })] });
    const { result } = await collect(httpOf(peer), [phase]);
    expect(errorsOf(result.phases[0]!.result.errors)).toEqual({ idle: 2 });
  });
});
