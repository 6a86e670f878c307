import { afterEach, describe, expect, it } from 'vitest';
import { ServerStats } from '../../../contract/servers.js';
import { WsStream } from '../../../contract/stream-ws.js';
import { startServer, stopAll, type RunningServer } from '../../../servers/test-support/servers.js';
import { closed, collect, req } from '../test-support/phases.js';

// Coordinated-omission-free timing of a WebSocket feed whose server stalls: the bundled server
// (a real process) is stopped with SIGSTOP while a subscription is held, and continued after
// STALL_MS. The stall shows as a gap of at least STALL_MS between messages, not lost; and where
// the session's idle limit ends it during the stall, the open gap up to that end is counted too.
// No assertion on speed: a busier machine only makes the gaps longer.

const STALL_MS = 600;

afterEach(stopAll);

/** stops the server once the first window with stream messages arrives, continues it STALL_MS later */
function stallOnce(server: RunningServer): { onWindow: (w: { stream?: { messages: number } }) => void; resumed: Promise<void> } {
  let stalled = false;
  let resume!: () => void;
  const resumed = new Promise<void>((r) => (resume = r));
  return {
    resumed,
    onWindow: (w) => {
      if (stalled || (w.stream?.messages ?? 0) === 0) return;
      stalled = true;
      process.kill(server.pid, 'SIGSTOP');
      setTimeout(() => {
        process.kill(server.pid, 'SIGCONT');
        resume();
      }, STALL_MS);
    },
  };
}

describe('a WebSocket feed whose server stalls', () => {
  it('SIGSTOP mid-subscription: the stall is one long gap, and every tick the server sent is counted', async () => {
    const server = await startServer('single');
    const stall = stallOnce(server);
    const stream = WsStream.parse({ protocol: 'ws', durationMs: 2500 });
    const phase = closed(1, { durationMs: 100, timeoutMs: 30_000, requests: [req('/ws/broadcast?ticks=1000&gapMs=10', { stream })] });
    const { result } = await collect(server.url, [phase], undefined, {}, stall.onWindow);
    await stall.resumed;
    const p = result.phases[0]!.result;
    expect(p.stream?.gap?.max).toBeGreaterThanOrEqual(STALL_MS);
    const stats = ServerStats.parse(await (await fetch(`${server.url}/__stats`)).json());
    // every tick sent while the session was open is counted; one tick the server sent as the client's
    // close crossed it (the hold ended) can never arrive, so the count may be one short, never more
    const sent = stats.webSockets?.sent ?? 0;
    expect(p.stream?.messages).toBeLessThanOrEqual(sent);
    expect(p.stream?.messages).toBeGreaterThanOrEqual(sent - 1);
  });

  it("SIGSTOP past the session's idle limit: an idle error, its open gap counted up to the session's end", async () => {
    const server = await startServer('single');
    const stall = stallOnce(server);
    const stream = WsStream.parse({ protocol: 'ws', durationMs: 20_000, idleTimeoutMs: 300 });
    const phase = closed(1, { durationMs: 100, timeoutMs: 30_000, requests: [req('/ws/broadcast?ticks=1000&gapMs=10', { stream })] });
    const { result } = await collect(server.url, [phase], undefined, {}, stall.onWindow);
    await stall.resumed;
    const p = result.phases[0]!.result;
    expect(p.errors.idle).toBe(1);
    expect(p.stream?.gap?.max).toBeGreaterThanOrEqual(300);
  });
});
