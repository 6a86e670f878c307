import { afterEach, describe, expect, it } from 'vitest';
import type { ArchitectureOptions } from '../../../contract/servers.js';
import { startServer, stopAll, type ArchitectureCase } from '../../../servers/test-support/servers.js';
import { runWsSession, type WsObserver, type WsSessionSpec } from './ws-session.js';

// The bundled architectures answer WebSocket on their fronts (servers/ws-front.ts): an echo session's
// every send comes back matched, a subscription's every tick arrives, a broadcast reaches every
// session, wss verifies against the server's own certificate, and an unknown path or a bad parameter
// is refused with one line. Servers started from dist/ (build first).

afterEach(stopAll);

class Counts implements WsObserver {
  opened = 0;
  roundTrips = 0;
  messages = 0;
  onOpen(): void {
    this.opened++;
  }
  onPong(): void {
    this.roundTrips++;
  }
  onMessage(_bytes: number, rttMs: number): void {
    this.messages++;
    if (!Number.isNaN(rttMs)) this.roundTrips++;
  }
  onSent(): void {}
}

const base: Omit<WsSessionSpec, 'url' | 'steps'> = { connectTimeoutMs: 20_000, replyTimeoutMs: 20_000, holdMs: 0, maxPayload: 1 << 20, maxMessages: 10_000 };
const echoSteps = [1, 2, 3].map((i) => ({ send: `{"n":${i}}`, expect: { path: 'n', equals: String(i) } }));
const wsUrl = (httpUrl: string): string => httpUrl.replace(/^http/, 'ws');

const cases: ArchitectureCase[] = [
  { name: 'single', architecture: 'single', options: {} },
  { name: 'cluster', architecture: 'cluster', options: { workers: 2 } },
  { name: 'autoscale', architecture: 'autoscale', options: { initial: 1, max: 2 } },
  { name: 'offload, HTTP workers', architecture: 'offload', options: { workers: 1, httpWorkers: 2 } },
  { name: 'thread-per-request', architecture: 'thread-per-request', options: { buckets: 8 } },
  { name: 'thread-pool', architecture: 'thread-pool', options: { threads: 2, buckets: 8 } },
];

describe.each(cases)('$name', ({ architecture, options }) => {
  it('an echo session and a subscription: every send matched, every tick received', async () => {
    const server = await startServer(architecture, options);
    const echo = new Counts();
    expect(await runWsSession({ ...base, url: `${wsUrl(server.url)}/ws/echo`, steps: echoSteps }, echo)).toBeNull();
    expect(echo.roundTrips).toBe(3);
    const feed = new Counts();
    const last = { expect: { path: 'seq', equals: '9' } };
    expect(await runWsSession({ ...base, url: `${wsUrl(server.url)}/ws/broadcast?ticks=10&gapMs=2&size=200`, steps: [last] }, feed)).toBeNull();
    expect(feed.messages).toBe(10);
  });
});

describe('the bundled WebSocket endpoints', () => {
  it('a broadcast from one session: every session of the process receives it', async () => {
    const server = await startServer('single');
    const url = `${wsUrl(server.url)}/ws/broadcast`;
    const listener = new Counts();
    // the listener waits for the broadcast; the sender starts once the listener is connected
    let listening!: () => void;
    const connected = new Promise<void>((resolve) => (listening = resolve));
    const heard = runWsSession({ ...base, url, steps: [{ expect: { includes: 'to all' } }] }, { onOpen: () => listening(), onPong: () => {}, onMessage: (bytes, rtt) => listener.onMessage(bytes, rtt), onSent: () => {} });
    await connected;
    const sender = new Counts();
    expect(await runWsSession({ ...base, url, steps: [{ send: 'to all', expect: { includes: 'to all' } }] }, sender)).toBeNull();
    expect(await heard).toBeNull();
    expect(listener.roundTrips).toBe(1);
    expect(sender.roundTrips).toBe(1);
  });

  it.each(['h1-tls', 'h2'] as const)('wss on a %s front: verifies against the server\'s own certificate', async (protocol) => {
    const server = await startServer('single', { protocol } as Partial<ArchitectureOptions['single']>);
    const counts = new Counts();
    const err = await runWsSession({ ...base, url: `${wsUrl(server.url)}/ws/echo`, steps: echoSteps, tls: { ca: server.cert } }, counts);
    expect(err).toBeNull();
    expect(counts.roundTrips).toBe(3);
  });

  it('an unknown path and a bad parameter: refused with a one-line reason', async () => {
    const server = await startServer('single');
    const missing = await runWsSession({ ...base, url: `${wsUrl(server.url)}/ws/nothing`, steps: [] }, new Counts());
    expect(missing?.message).toBe('the upgrade was answered 404, not 101');
    const bad = await runWsSession({ ...base, url: `${wsUrl(server.url)}/ws/broadcast?ticks=-1`, steps: [] }, new Counts());
    expect(bad?.message).toBe('the upgrade was answered 400, not 101');
    const res = await fetch(`${server.url}/fib?n=5`);
    expect(res.status).toBe(200);
  });
});
