import { describe, expect, it } from 'vitest';
import type { EndpointWindow, LiveWindow } from '../../contract/results';
import { emptyTarget, type RunSeries } from '../charts/run-data';
import { liveEndpointGroups } from './live-endpoint-groups';

// The live latency chart per endpoint (issue 36): a line per server run and endpoint from the
// endpoint windows the driver sends, named as the after-run split names them; a phase of one
// request (no endpoint windows) is its one endpoint's line; no split before any window has endpoints.

const SCENARIO = {
  name: 'mixed',
  servers: [{ architecture: 'single' }],
  phases: [
    { executor: 'burst', count: 5, requests: [{ path: '/warm' }] },
    { executor: 'closed', users: 2, durationMs: 1000, flow: true, requests: [{ name: 'login', method: 'POST', path: '/api/login' }, { name: 'item', path: '/api/items/1' }] },
  ],
};

const latency = { mean: 5, p50: 4, p90: 8, p99: 9, max: 10 };
const endpoint = (name: string, count: number): EndpointWindow => ({ name, count, errors: {}, total: latency, wait: null, processing: null, ttfb: null, transfer: null });
const window = (targetId: number, tMs: number, phaseIndex: number, endpoints?: EndpointWindow[]): LiveWindow => ({ runId: 1, targetId, tMs, phaseIndex, count: 4, throughput: 16, errors: {}, inFlight: 2, total: latency, wait: null, processing: null, queued: 0, ...(endpoints && { endpoints }) });

function series(targets: number, withEndpoints = true): RunSeries {
  return {
    runId: 1,
    targets: Array.from({ length: targets }, (_, k) => {
      const t = emptyTarget(k + 1, `server ${k + 1}`);
      t.windows.push(window(k + 1, 250, 0), window(k + 1, 500, 1, withEndpoints ? [endpoint('login', 1), endpoint('item', 3)] : undefined));
      return t;
    }),
  };
}

describe('liveEndpointGroups', () => {
  it("a line per endpoint, a phase of one request as its endpoint's line, each window's share of the throughput", () => {
    const groups = liveEndpointGroups(series(1), SCENARIO);
    expect(groups?.map((g) => [g.name, g.windows.map((w) => [w.tMs, w.count, w.throughput])])).toEqual([
      ['GET /warm', [[250, 4, 16]]],
      ['login', [[500, 1, 4]]],
      ['item', [[500, 3, 12]]],
    ]);
  });

  it('several server runs: the server run before the endpoint, lines apart', () => {
    expect(liveEndpointGroups(series(2), SCENARIO)?.map((g) => g.name)).toEqual(['server 1 · GET /warm', 'server 1 · login', 'server 1 · item', 'server 2 · GET /warm', 'server 2 · login', 'server 2 · item']);
  });

  it('no window with endpoints: no split (the chart stays per server run)', () => {
    expect(liveEndpointGroups(series(1, false), SCENARIO)).toBeNull();
  });
});
