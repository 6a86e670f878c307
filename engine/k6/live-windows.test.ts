import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../contract/api.js';
import type { K6Request } from './import/k6-request.js';
import { LiveWindows } from './live-windows.js';

// The live windows of `run --instances N` (issue 40): N k6 processes' points merged as they arrive.
// A window is sent once every instance still running has sent a point past its end, or once the
// bound (LAG_MS after its end) has passed; an instance that exited holds nothing; a late point is
// counted in the next window not yet sent, never dropped. A stream's messages (issue 41) show in the
// window of their own time. The clock is the test's, not the machine's.

const T0_US = 1_700_000_000_000_000;

function request(endMs: number): K6Request {
  return { source: 'loadscope', cell: 0, server: 's', instance: null, phase: { index: 0, name: 'p', tagged: true }, endUs: T0_US + endMs * 1000, totalMs: 1, error: null, status: 200, procMs: null, serverWaitMs: null, endpoint: null };
}

function windowsOf(instances: number) {
  let nowMs = 0;
  const sent: { tMs: number; count: number; stream?: { messages: number; rtt: boolean } }[] = [];
  const emit = (e: EngineEvent) => {
    if (e.event !== 'run:window') return;
    const s = e.payload.stream;
    sent.push({ tMs: e.payload.tMs, count: e.payload.count, ...(s !== undefined && { stream: { messages: s.messages, rtt: s.rtt !== null } }) });
  };
  const live = new LiveWindows(1, 1, emit, T0_US, () => 'p', instances, () => T0_US / 1000 + nowMs);
  return { live, sent, at: (ms: number) => (nowMs = ms) };
}

describe('live windows of several k6 instances', () => {
  it('a window one instance has passed and the other has not: held until the other passes it too', () => {
    const { live, sent } = windowsOf(2);
    live.add(request(100), 0);
    live.add(request(700), 0);
    live.flush(false);
    expect(sent).toEqual([]);
    live.add(request(300), 1);
    live.flush(false);
    expect(sent).toEqual([]);
    live.add(request(600), 1);
    live.flush(false);
    expect(sent).toEqual([{ tMs: 500, count: 2 }]);
    live.finish(1000);
  });

  it('an instance that never sends again (stalled): the window goes out once the bound has passed after its end', () => {
    const { live, sent, at } = windowsOf(2);
    live.add(request(100), 0);
    live.add(request(900), 0);
    at(2400);
    live.flush(false);
    expect(sent).toEqual([]);
    at(2600);
    live.flush(false);
    expect(sent).toEqual([{ tMs: 500, count: 1 }]);
    live.finish(3000);
  });

  it('an instance that exited holds no window; a late point after its window went out counts in the next one', () => {
    const { live, sent } = windowsOf(2);
    live.add(request(100), 0);
    live.add(request(800), 0);
    live.instanceEnded(1);
    expect(sent).toEqual([{ tMs: 500, count: 1 }]);
    live.add(request(200), 0);
    live.finish(1000);
    expect(sent).toEqual([{ tMs: 500, count: 1 }, { tMs: 1000, count: 2 }]);
    expect(sent.reduce((s, w) => s + w.count, 0)).toBe(3);
  });

  it("a stream's messages and its end: counted in the windows of their own times, with their round trips", () => {
    const { live, sent } = windowsOf(1);
    const message = (endMs: number, first: boolean, rttMs: number | null) => ({ cell: 0, server: 's', phase: { index: 0, name: 'p', tagged: true }, endpoint: 'echo', figure: first ? ('ttfe' as const) : ('gap' as const), ms: 1, bytes: 4, rttMs });
    live.addStream(message(100, true, 2), T0_US + 100_000);
    live.addStream(message(200, false, null), T0_US + 200_000);
    live.addStream(message(600, false, 1), T0_US + 600_000);
    live.add({ ...request(700), stream: { sent: 2, openGapMs: null } });
    live.finish(1000);
    expect(sent.map((w) => [w.tMs, w.count, w.stream])).toEqual([[500, 0, { messages: 2, rtt: true }], [1000, 1, { messages: 1, rtt: true }]]);
  });
});
