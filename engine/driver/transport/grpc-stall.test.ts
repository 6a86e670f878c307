import { afterEach, describe, expect, it } from 'vitest';
import type { Phase } from '../../../contract/scenario.js';
import type { GrpcStream } from '../../../contract/stream-grpc.js';
import { startServer, stopAll } from '../../../servers/test-support/servers.js';
import { rootPath } from '../../paths.js';
import { closed, collect, rate, req } from '../test-support/phases.js';

// gRPC streams timed without coordinated omission (issue 41), through the driver against the bundled
// service in a process of its own (started from dist/): a server stopped (SIGSTOP) mid-stream shows
// as a gap of at least the stall, not lost, and the stream goes on after it; a rate phase whose calls
// queue at the client counts each call's first message from its intended start, so the queue shows.

afterEach(stopAll);

const grpc = (o: Partial<GrpcStream> = {}) => ({ stream: { protocol: 'grpc' as const, proto: rootPath('scenarios/examples/grpc-bench.proto'), maxMessageBytes: 4 * 1024 * 1024, ...o } });
const errs = (e: Partial<Record<string, number>>) => Object.fromEntries(Object.entries(e).filter(([, n]) => (n ?? 0) > 0));

function ticks(count: number, gapMs: number, phase: Phase): Phase {
  return { ...phase, requests: [req('/loadscope.Bench/Ticks', { body: JSON.stringify({ count, gap_ms: gapMs }), ...grpc({ messages: count }) })] };
}

describe('gRPC streams, coordinated-omission free', () => {
  it('the server stopped (SIGSTOP) for 800 ms mid-stream: the gap shows at least the stall, every tick still counted', async () => {
    const server = await startServer('single', { protocol: 'h2c' });
    let stopped = false;
    const { result } = await collect(server.url, [ticks(30, 20, closed(1, { count: 1 }))], undefined, { windowMs: 100 }, (w) => {
      // once ticks flow, the server stops mid-stream; a timer ends the stall (its length is what is measured)
      if (stopped || (w.stream?.messages ?? 0) === 0) return;
      stopped = true;
      process.kill(server.pid, 'SIGSTOP');
      setTimeout(() => process.kill(server.pid, 'SIGCONT'), 800);
    });
    const phase = result.phases[0]!.result;
    expect(stopped).toBe(true);
    expect(errs(phase.errors)).toEqual({});
    expect(phase.stream!.messages).toBe(30);
    expect(phase.stream!.gap!.max).toBeGreaterThanOrEqual(750);
  });

  it("a rate phase whose calls queue at the client (maxInFlight 1): each call's ttfe counts from its intended start, so the queue shows", async () => {
    const server = await startServer('single', { protocol: 'h2c' });
    const phase = rate(40, 200, '/', { maxInFlight: 1 });
    const { result } = await collect(server.url, [ticks(4, 25, phase)]);
    const p = result.phases[0]!.result;
    expect(errs(p.errors)).toEqual({});
    expect(p.count).toBe(8);
    // 8 streams of ~75 ms one after another, arriving 25 ms apart: the last waits for the 7 before it
    expect(p.stream!.ttfe!.max).toBeGreaterThan(300);
    expect(p.stream!.ttfe!.max).toBeGreaterThanOrEqual(p.lag.max);
  });
});
