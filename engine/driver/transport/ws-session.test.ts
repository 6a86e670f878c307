import { afterEach, describe, expect, it } from 'vitest';
import { guardedLookup } from '../../net/target-guard.js';
import { classifyError } from '../measure/errors.js';
import { ERROR_CODE } from '../measure/raw-rows.js';
import { GIANT_FRAME_BYTES, giantFramePeer, wsPeer, type GiantFramePeer, type WsPeer } from './test-support/ws-peers.js';
import { runWsSession, WS_CODES, type WsObserver, type WsSessionSpec } from './ws-session.js';

// A WebSocket session (transport/ws-session.ts) against ws's own WebSocketServer and hostile peers
// on 127.0.0.1: its counts agree with the server's own, and a peer that never replies, floods
// messages, sends a 100 MB frame or cuts the session ends it cleanly with the error counted, within
// its deadline and bounds, holding no more than one bounded message.

class Recorder implements WsObserver {
  connects: number[] = [];
  roundTrips: number[] = [];
  messages = 0;
  bytes = 0;
  sent = 0;
  onOpen(ms: number): void {
    this.connects.push(ms);
  }
  onPong(ms: number): void {
    this.roundTrips.push(ms);
  }
  onMessage(bytes: number, rttMs: number): void {
    this.messages++;
    this.bytes += bytes;
    if (!Number.isNaN(rttMs)) this.roundTrips.push(rttMs);
  }
  onSent(): void {
    this.sent++;
  }
}

const base: Omit<WsSessionSpec, 'url' | 'steps'> = {
  connectTimeoutMs: 10_000,
  replyTimeoutMs: 10_000,
  holdMs: 0,
  maxPayload: 64 * 1024,
  maxMessages: 10_000,
};

let peer: WsPeer | null = null;
let giant: GiantFramePeer | null = null;
afterEach(async () => {
  await peer?.close();
  await giant?.close();
  peer = null;
  giant = null;
});

describe('a WebSocket session', () => {
  it("a script of sends against ws's own server: every reply matched, the counts are the server's own", async () => {
    peer = await wsPeer();
    const rec = new Recorder();
    const steps = [
      { send: 'hello', expect: { includes: 'hello' } },
      { send: '{"id":7,"data":{"ok":"yes"}}', expect: { path: 'data.ok', equals: 'yes' } },
      { ping: true as const },
      { send: 'three', expect: { includes: 'three' } },
    ];
    const err = await runWsSession({ ...base, url: `${peer.url}/echo`, steps }, rec);
    expect(err).toBeNull();
    expect(rec.connects).toHaveLength(1);
    expect(rec.roundTrips).toHaveLength(4);
    expect(rec.sent).toBe(peer.counts.received);
    expect(rec.messages).toBe(peer.counts.sent);
    expect(peer.counts.received).toBe(3);
  });

  it('a subscription that only receives: every tick counted, as many as the server sent', async () => {
    peer = await wsPeer();
    const rec = new Recorder();
    const err = await runWsSession({ ...base, url: `${peer.url}/ticks?n=20&gapMs=5`, steps: [{ expect: { path: 'seq', equals: '19' } }], holdMs: 1 }, rec);
    expect(err).toBeNull();
    expect(rec.messages).toBe(20);
    expect(rec.messages).toBe(peer.counts.sent);
    expect(rec.roundTrips).toHaveLength(1);
  });

  it('a server that never replies: the step fails at its wait as an idle stream', async () => {
    peer = await wsPeer();
    const err = await runWsSession({ ...base, url: `${peer.url}/silent`, steps: [{ send: 'anyone?', expect: { includes: 'x' }, timeoutMs: 300 }] }, new Recorder());
    expect((err as { code?: string } | null)?.code).toBe(WS_CODES.wait);
    expect(classifyError(err)).toBe(ERROR_CODE.idle);
  });

  it('a held subscription whose server goes silent: the gap limit ends it as an idle stream', async () => {
    peer = await wsPeer();
    const err = await runWsSession({ ...base, url: `${peer.url}/silent`, steps: [], holdMs: 60_000, gapLimitMs: 300 }, new Recorder());
    expect((err as { code?: string } | null)?.code).toBe(WS_CODES.wait);
  });

  it('a held session with keep-alive pings: answered, it ends cleanly at its hold; a peer that never pongs: an idle error', async () => {
    peer = await wsPeer();
    const held = { ...base, steps: [], holdMs: 300, pingEveryMs: 20, replyTimeoutMs: 5000 };
    expect(await runWsSession({ ...held, url: `${peer.url}/silent` }, new Recorder())).toBeNull();
    const err = await runWsSession({ ...held, url: `${peer.url}/no-pong`, holdMs: 60_000, replyTimeoutMs: 200 }, new Recorder());
    expect(err?.message).toBe('no pong within 200 ms of a keep-alive ping');
    expect(classifyError(err)).toBe(ERROR_CODE.idle);
  });

  it('a server that floods messages: the session ends at maxMessages as a protocol error', async () => {
    peer = await wsPeer();
    const rec = new Recorder();
    const err = await runWsSession({ ...base, url: `${peer.url}/flood`, steps: [], holdMs: 60_000, maxMessages: 500 }, rec);
    expect((err as { code?: string } | null)?.code).toBe(WS_CODES.flood);
    expect(classifyError(err)).toBe(ERROR_CODE.protocol);
    expect(rec.messages).toBe(500);
  });

  it('a server that sends a 100 MB frame: refused at its header by maxPayload, never buffered', async () => {
    giant = await giantFramePeer();
    const rec = new Recorder();
    const err = await runWsSession({ ...base, url: giant.url, steps: [], holdMs: 60_000 }, rec);
    expect((err as { code?: string } | null)?.code).toBe('WS_ERR_UNSUPPORTED_MESSAGE_LENGTH');
    expect(classifyError(err)).toBe(ERROR_CODE.protocol);
    expect(rec.messages).toBe(0);
    expect(giant.written()).toBeLessThan(GIANT_FRAME_BYTES);
  });

  it('a server that cuts the session mid-script: counted as a stream cut short, not a success', async () => {
    peer = await wsPeer();
    const steps = [
      { send: 'one', expect: { includes: 'one' } },
      { send: 'two', expect: { includes: 'two' } },
    ];
    const err = await runWsSession({ ...base, url: `${peer.url}/cut-after-1`, steps }, new Recorder());
    expect(classifyError(err)).toBe(ERROR_CODE.stream);
  });

  it('an upgrade answered 404: an http error, one line', async () => {
    peer = await wsPeer();
    const err = await runWsSession({ ...base, url: `${peer.url}/missing`, steps: [] }, new Recorder());
    expect((err as { code?: string } | null)?.code).toBe(WS_CODES.upgrade);
    expect(classifyError(err)).toBe(ERROR_CODE.http);
    expect(err?.message).toBe('the upgrade was answered 404, not 101');
  });

  it('a host that resolves outside this machine: refused by the guarded lookup, no connection made', async () => {
    // a resolver that says the name is at 10.1.2.3: the guard must refuse it before any packet leaves
    const lookup = guardedLookup(false, (_host, _options, callback) => callback(null, [{ address: '10.1.2.3', family: 4 }]));
    const err = await runWsSession({ ...base, url: 'ws://far.example:9/echo', lookup, steps: [] }, new Recorder());
    expect(err?.message).toMatch(/10\.1\.2\.3/);
    expect((err as { code?: string } | null)?.code).toBe('LS_ERR_NOT_LOOPBACK');
  });

  it('a port nothing listens on: refused, within the connect deadline', async () => {
    peer = await wsPeer();
    const url = peer.url;
    await peer.close();
    peer = null;
    const err = await runWsSession({ ...base, url: `${url}/echo`, steps: [] }, new Recorder());
    expect(classifyError(err)).toBe(ERROR_CODE.refused);
  });
});
