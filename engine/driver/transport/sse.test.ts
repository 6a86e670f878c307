import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from 'better-sse';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Phase } from '../../../contract/scenario.js';
import type { SseStream } from '../../../contract/stream-sse.js';
import { closed, collect, rate, req } from '../test-support/phases.js';
import { startChildSseServer, type ChildSseServer } from './test-support/sse-child.js';
import { startSseServer, type Behaviour, type SseServer } from './test-support/sse-servers.js';

// Server-Sent Events under load (issue 41, transport/sse.ts): each stream is one request of its
// slot, each event a message timed from the stream's intended start (ttfe) and from the last (gap).
// What is protected: events counted as the server counted them (ours and better-sse's); a stream cut
// short, one that never sends, an endless event and a flood each end the run cleanly with the error
// counted and what the client read bounded; a server stopped mid-stream (SIGSTOP) shows as a gap,
// not lost; a rate phase's queued streams count their ttfe from the intended start.

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(b: Behaviour): Promise<SseServer> {
  const s = await startSseServer(b);
  servers.push(s);
  return s;
}

/** a phase's error counts without the kinds at 0 */
const errs = (e: Partial<Record<string, number>>) => Object.fromEntries(Object.entries(e).filter(([, n]) => (n ?? 0) > 0));

const sse = (o: Partial<SseStream> = {}) => ({ stream: { protocol: 'sse' as const, eventTimeoutMs: 10_000, maxEventBytes: 64 * 1024, ...o } });
const streamsOf = (path: string, o: Partial<SseStream>, phase: (p: string) => Phase): Phase => {
  const p = phase(path);
  return { ...p, requests: [req(path, sse(o))] };
};

describe('SSE streams against peers', () => {
  it('streams of 5 events, 4 streams by 2 users: every event counted as the server sent it, ttfe and gaps timed, no error', async () => {
    const s = await serve({ kind: 'events', n: 5, gapMs: 5 });
    const { result } = await collect(s.url, [streamsOf('/s', { events: 5 }, (p) => closed(2, { count: 4 }, p))]);
    const phase = result.phases[0]!.result;
    expect(phase.count).toBe(4);
    expect(errs(phase.errors)).toEqual({});
    expect(phase.stream).toMatchObject({ streams: 4, messages: 20 });
    expect(s.events).toBe(20);
    expect(phase.stream!.ttfe!.count).toBe(4);
    expect(phase.stream!.gap!.count).toBe(16);
  });

  it("better-sse's server (a registry package): the events the client counts are the server's own count; its retry field and keep-alive comments are not events", async () => {
    let pushed = 0;
    const server: Server = createServer((rq, rs) => {
      void createSession(rq, rs, { keepAlive: 5 }).then((session) => {
        let i = 0;
        const t = setInterval(() => {
          if (!session.isConnected) return clearInterval(t);
          if (i++ === 6) {
            clearInterval(t);
            return void rs.end();
          }
          session.push({ n: i }, 'tick');
          pushed++;
        }, 10);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { result } = await collect(url, [streamsOf('/sse', {}, (p) => closed(3, { count: 3 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({});
    expect(pushed).toBe(18);
    expect(phase.stream!.messages).toBe(pushed);
  });

  it('a connection the server drops after 3 of 5 events: a stream error (cut short) with its reason, the 3 events counted', async () => {
    const s = await serve({ kind: 'cut', n: 3 });
    const { result } = await collect(s.url, [streamsOf('/s', { events: 5 }, (p) => closed(1, { count: 2 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({ stream: 2 });
    expect(phase.errorReasons![0]!.reason).toMatch(/^LS_STREAM_CUT: the connection closed mid-stream after 3 events/);
    expect(phase.stream!.messages).toBe(6);
  });

  it('a server that ends the stream cleanly before its events: a stream error naming how many came', async () => {
    const s = await serve({ kind: 'events', n: 2, gapMs: 1 });
    const { result } = await collect(s.url, [streamsOf('/s', { events: 5 }, (p) => closed(1, { count: 2 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({ stream: 2 });
    expect(phase.errorReasons).toEqual([{ kind: 'stream', reason: 'LS_STREAM_CUT: the server ended the stream after 2 of 5 events', count: 2 }]);
  });

  it('a server that never sends an event: an idle error at eventTimeoutMs, the run ends, the connection left', async () => {
    const s = await serve({ kind: 'silent' });
    const { result } = await collect(s.url, [streamsOf('/s', { eventTimeoutMs: 150 }, (p) => closed(2, { count: 2 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({ idle: 2 });
    expect(phase.errorReasons![0]!.reason).toBe('LS_STREAM_IDLE: no event within eventTimeoutMs (150 ms) after the send');
    expect(phase.stream).toMatchObject({ streams: 2, messages: 0, ttfe: null });
  });

  it("a stream that stalls after 2 events until its idle limit: the open wait is counted as a gap (not lost with the error)", async () => {
    const s = await serve({ kind: 'stall', n: 2 });
    const { result } = await collect(s.url, [streamsOf('/s', { eventTimeoutMs: 400 }, (p) => closed(1, { count: 1 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({ idle: 1 });
    expect(phase.stream!.messages).toBe(2);
    // one gap between the two events, and the open one the idle limit cut
    expect(phase.stream!.gap!.count).toBe(2);
    expect(phase.stream!.gap!.max).toBeGreaterThanOrEqual(400);
  });

  it('an endless event (one data line poured as fast as read): a protocol error at maxEventBytes; the client read a bounded amount', async () => {
    const s = await serve({ kind: 'endless' });
    const { result } = await collect(s.url, [streamsOf('/s', { maxEventBytes: 64 * 1024 }, (p) => closed(1, { count: 1 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({ protocol: 1 });
    expect(phase.errorReasons![0]!.reason).toBe('LS_STREAM_OVER_BOUND: an event line over maxEventBytes (65536 bytes)');
    // what the server got written before the client left: the bound and the sockets' buffers, not the endless rest
    expect(s.bytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('a flood of events for a held duration: a clean end at durationMs, every event read counted, the run ends', async () => {
    const s = await serve({ kind: 'flood' });
    const { result } = await collect(s.url, [streamsOf('/s', { durationMs: 300 }, (p) => closed(2, { count: 2 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({});
    expect(phase.stream!.messages).toBeGreaterThan(100);
    expect(phase.stream!.messages).toBeLessThanOrEqual(s.events);
  });

  it("a stream with no end of its own and a silent server: a timeout at the phase's timeoutMs, as any request's deadline", async () => {
    const s = await serve({ kind: 'silent' });
    const { result } = await collect(s.url, [streamsOf('/s', {}, (p) => closed(1, { count: 1, timeoutMs: 300 }, p))]);
    expect(errs(result.phases[0]!.result.errors)).toEqual({ timeout: 1 });
  });

  it('a 503 answer: an http error as for any request, its body not read as events', async () => {
    const s = await serve({ kind: 'status' });
    const { result } = await collect(s.url, [streamsOf('/s', { events: 3 }, (p) => closed(1, { count: 2 }, p))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({ http: 2 });
    expect(phase.stream!.messages).toBe(0);
  });
});

describe('SSE timing without coordinated omission', () => {
  let child: ChildSseServer | null = null;
  afterEach(async () => {
    await child?.close();
    child = null;
  });

  it('the server stopped (SIGSTOP) for 800 ms mid-stream: the gap shows at least the stall, the stream goes on after it', async () => {
    child = await startChildSseServer(20);
    const c = child;
    let stopped = false;
    const { result } = await collect(c.url, [streamsOf('/s', { events: 30 }, (p) => closed(1, { count: 1 }, p))], undefined, { windowMs: 100 }, (w) => {
      // once events flow, the server stops mid-stream; a timer ends the stall (its length is what is measured)
      if (stopped || (w.stream?.messages ?? 0) === 0) return;
      stopped = true;
      c.child.kill('SIGSTOP');
      setTimeout(() => c.child.kill('SIGCONT'), 800);
    });
    const phase = result.phases[0]!.result;
    expect(stopped).toBe(true);
    expect(errs(phase.errors)).toEqual({});
    expect(phase.stream!.messages).toBe(30);
    expect(phase.stream!.gap!.max).toBeGreaterThanOrEqual(750);
  });

  it("a rate phase whose streams queue at the client (maxInFlight 1): each stream's ttfe counts from its intended start, so the queue shows", async () => {
    const s = await serve({ kind: 'events', n: 4, gapMs: 25 });
    const { result } = await collect(s.url, [streamsOf('/s', { events: 4 }, (p) => rate(40, 200, p, { maxInFlight: 1 }))]);
    const phase = result.phases[0]!.result;
    expect(errs(phase.errors)).toEqual({});
    expect(phase.count).toBe(8);
    // 8 streams of ~75 ms one after another, arriving 25 ms apart: the last waits for the 7 before it
    expect(phase.stream!.ttfe!.max).toBeGreaterThan(300);
    expect(phase.stream!.ttfe!.max).toBeGreaterThanOrEqual(phase.lag.max);
  });
});
