import { describe, expect, it } from 'vitest';
import { NO_ERROR } from '../../../contract/measurement.js';
import { LIVE_ENDPOINTS, otherEndpointsName } from '../../../contract/live-endpoints.js';
import { EndpointWindows, liveEndpointSlots } from './endpoint-windows.js';
import { PhaseStats, RowSink } from './stats.js';
import { burst, req } from '../test-support/phases.js';

// The live chart's lines per endpoint (issue 36) have a bound: a phase of up to LIVE_ENDPOINTS
// templates gets one line each, a larger one (up to 256 templates) LIVE_ENDPOINTS lines, its heaviest
// templates' and one "other" that holds the rest, so a window never carries more than LIVE_ENDPOINTS
// endpoint entries and every request is counted in exactly one of them.

const templates = (n: number, weight: (i: number) => number = () => 1) => Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/item/${i}`, weight: weight(i) }));

/** Records `perTemplate[i]` requests of template i into fresh endpoint windows and takes one window. */
function oneWindow(tpls: ReturnType<typeof templates>, perTemplate: (i: number) => number) {
  const w = new EndpointWindows(tpls);
  tpls.forEach((_, i) => {
    for (let k = 0; k < perTemplate(i); k++) w.record(i, NO_ERROR, 1000 + i * 10, NaN, 100, 50);
  });
  return w.take();
}

describe('live endpoint windows', () => {
  it('a journey of two steps: a line per step, named as its results are, counting its own requests', () => {
    const window = oneWindow([{ method: 'POST', path: '/api/login', weight: 1 }, { method: 'GET', path: '/api/items', weight: 1 }], (i) => (i === 0 ? 3 : 5));
    expect(window?.map((e) => [e.name, e.count])).toEqual([['POST /api/login', 3], ['GET /api/items', 5]]);
  });

  it('a phase of one template: no endpoint windows (its window is its endpoint)', () => {
    expect(oneWindow(templates(1), () => 4)).toBeUndefined();
  });

  it('256 templates, the most a phase has: at most LIVE_ENDPOINTS lines, the rest in "other", every request counted once', () => {
    const window = oneWindow(templates(256), (i) => 1 + (i % 3));
    expect(window).toHaveLength(LIVE_ENDPOINTS);
    expect(window?.at(-1)?.name).toBe(otherEndpointsName(256 - (LIVE_ENDPOINTS - 1)));
    const recorded = Array.from({ length: 256 }, (_, i) => 1 + (i % 3)).reduce((a, b) => a + b, 0);
    expect(window?.reduce((n, e) => n + e.count, 0)).toBe(recorded);
  });

  it('more templates than lines: the heaviest keep their own line (in template order), whatever their position', () => {
    const heavy = new Set([3, 40, 100]);
    const { names, slotOf } = liveEndpointSlots(templates(120, (i) => (heavy.has(i) ? 10 : 1)), 4);
    expect(names).toEqual(['GET /item/3', 'GET /item/40', 'GET /item/100', otherEndpointsName(117)]);
    expect([slotOf[3], slotOf[40], slotOf[100], slotOf[0], slotOf[119]]).toEqual([0, 1, 2, 3, 3]);
  });

  it('each window starts empty: a line counts only the requests since the last window', () => {
    const w = new EndpointWindows(templates(2));
    w.record(0, NO_ERROR, 1000, NaN, 100, 50);
    w.take();
    w.record(1, NO_ERROR, 1000, NaN, 100, 50);
    expect(w.take()?.map((e) => e.count)).toEqual([0, 1]);
  });

  it("a phase's live window carries its endpoints, and a phase of one request carries none", () => {
    const two = PhaseStats.of({ ...burst(1), requests: [req('/a'), req('/b')] }, new RowSink(false, () => undefined));
    const one = PhaseStats.of(burst(1), new RowSink(false, () => undefined));
    const done = { phase: 0, client: 0, intended: 0, sent: 5, firstByte: 900, status: 200, bytes: 1, stWait: NaN, stProc: NaN, template: 1 };
    two.record(done, 1000, NO_ERROR);
    one.record({ ...done, template: 0 }, 1000, NO_ERROR);
    expect(two.takeWindow(0, 250, 250, 0, 0).endpoints?.map((e) => e.count)).toEqual([0, 1]);
    expect(one.takeWindow(0, 250, 250, 0, 0).endpoints).toBeUndefined();
  });
});
