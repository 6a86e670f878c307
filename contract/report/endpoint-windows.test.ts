import { describe, expect, it } from 'vitest';
import type { RequestPoint } from '../results.js';
import { endpointWindows } from './endpoint-windows.js';

// The latency chart split by endpoint is drawn from stored request rows (the stored windows are per
// phase): each request in the 250 ms window it completed in, per endpoint name, refusals counted but
// left out of the times, and a sampled page's counts scaled back to what was recorded.

const point = (templateIdx: number, intendedMs: number, totalMs: number, over: Partial<RequestPoint> = {}): RequestPoint => ({
  phaseIndex: 0, templateIdx, intendedMs, totalMs, waitMs: totalMs / 2, processingMs: totalMs / 2, serverWaitMs: null, lagMs: 0, ttfbMs: null, transferMs: null, status: 200, error: null, ...over,
});

const names = ['login', 'search'];
const nameOf = (phaseIndex: number, templateIdx: number) => (phaseIndex === 0 ? (names[templateIdx] ?? null) : null);

describe('endpoint windows from request rows', () => {
  it('one line per endpoint, each request in the window it completed in, percentiles over that window only', () => {
    const points = [
      point(0, 0, 10), point(1, 0, 100), point(0, 10, 20), // done at 10, 100, 30 ms: window 0-250
      point(0, 200, 100), // done at 300: window 250-500
      point(1, 300, 30), point(1, 310, 40), point(1, 320, 50), point(1, 330, 60),
    ];
    const lines = endpointWindows(points, { runId: 7, targetId: 3 }, nameOf);
    expect(lines.map((l) => l.name)).toEqual(['login', 'search']);
    const login = lines[0]!.windows;
    expect(login.map((w) => [w.tMs, w.count])).toEqual([[250, 2], [500, 1]]);
    expect(login[0]!.total).toEqual({ mean: 15, p50: 10, p90: 20, p99: 20, max: 20 });
    expect(login[0]!.wait?.max).toBe(10);
    const search = lines[1]!.windows;
    expect(search.map((w) => [w.tMs, w.count])).toEqual([[250, 1], [500, 4]]);
    expect(search[1]!.total).toEqual({ mean: 45, p50: 40, p90: 60, p99: 60, max: 60 });
    expect(search.every((w) => w.runId === 7 && w.targetId === 3 && w.phaseIndex === 0)).toBe(true);
  });

  it('rows of no known endpoint are left out; refusals count and carry no time; a sample is scaled to what was recorded', () => {
    const points = [point(0, 0, 10), point(0, 0, 1, { error: 'refused', status: 0 }), point(5, 0, 10), point(0, 0, 10, { phaseIndex: 1 })];
    const [login, ...rest] = endpointWindows(points, { runId: 1, targetId: 1 }, nameOf, 4);
    expect(rest).toEqual([]);
    const w = login!.windows[0]!;
    expect(w.count).toBe(8);
    expect(w.throughput).toBe(32);
    expect(w.errors).toEqual({ refused: 4 });
    // the refusal's 1 ms is not a time: only the 10 ms request is
    expect(w.total).toEqual({ mean: 10, p50: 10, p90: 10, p99: 10, max: 10 });
  });

  it('a time the server did not report is no figure, not zero; the client\'s own times are there', () => {
    const [login] = endpointWindows([point(0, 0, 10, { processingMs: null, waitMs: null, ttfbMs: 9, transferMs: 1 })], { runId: 1, targetId: 1 }, nameOf);
    expect(login!.windows[0]!.processing).toBeNull();
    expect(login!.windows[0]!.wait).toBeNull();
    expect(login!.windows[0]!.ttfb).toEqual({ mean: 9, p50: 9, p90: 9, p99: 9, max: 9 });
    expect(login!.windows[0]!.transfer?.max).toBe(1);
  });
});
