import { describe, expect, it } from 'vitest';
import { COMPARE_METRICS, pairPhases } from './compare.js';
import type { EndpointResult, LatencyStats, PhaseResult, RunSummary } from './results.js';

// Compare pairs a split phase's endpoints by request name (issue 26), after the phase itself: each
// endpoint with its namesake in the other runs whatever its template index there, its figures the
// endpoint's own, and a phase of one request is not split.

const stats = (mean: number): LatencyStats => ({ count: 10, mean, min: mean, max: mean * 2, stddev: 0, p50: mean, p66: mean, p75: mean, p80: mean, p90: mean, p95: mean, p98: mean, p99: mean * 1.5, p999: mean * 2 });

const endpoint = (index: number, name: string, mean: number, count = 50): EndpointResult => ({
  name, index, count, ok: count, errors: {}, throughput: count, total: stats(mean), wait: stats(mean / 2), processing: stats(mean / 2), serverWait: null, lag: stats(0.1),
});

const phase = (name: string, endpoints: EndpointResult[]): PhaseResult => ({
  index: 0, name, executor: 'burst', clients: 1, startedMs: 0, durationMs: 1000, count: endpoints.reduce((n, e) => n + e.count, 0), ok: 100, errors: {}, throughput: 100,
  total: stats(20), wait: stats(10), processing: stats(10), serverWait: null, lag: stats(0.1), endpoints,
});

function run(id: number, phases: PhaseResult[]): Pick<RunSummary, 'targets'> {
  return { targets: [{ id: id * 10, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed', reason: null, startedAt: null, durationMs: 1000, phases, peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 0, rawSampled: false }] };
}

const mean = COMPARE_METRICS.find((m) => m.key === 'total.mean')!;

describe('Compare pairs endpoints by name', () => {
  it('each endpoint of a split phase with its namesake, after the phase, whatever its template index', () => {
    const a = run(1, [phase('load', [endpoint(0, 'login', 5), endpoint(1, 'GET /items', 30)])]);
    // B lists the same requests the other way round: pairing is by name, not position
    const b = run(2, [phase('load', [endpoint(0, 'GET /items', 60), endpoint(1, 'login', 5)])]);
    const pairs = pairPhases([a, b]);
    expect(pairs.map((p) => [p.key, p.endpoint])).toEqual([
      ['single / load', null],
      ['single / load / login', 'login'],
      ['single / load / GET /items', 'GET /items'],
    ]);
    const items = pairs[2]!;
    expect(items.runs.map((e) => e?.templateIdx)).toEqual([1, 0]);
    // the figures are the endpoint's own, read through the phase's metrics
    expect(items.runs.map((e) => mean.get(e!.phase, e!.engine))).toEqual([30, 60]);
    expect(items.runs.map((e) => e?.phase.count)).toEqual([50, 50]);
    // the phase pair is the whole phase, no template
    expect(pairs[0]!.runs.map((e) => [e?.templateIdx, mean.get(e!.phase)])).toEqual([[null, 20], [null, 20]]);
  });

  it('an endpoint one run lacks is "-" in it; a phase of one request in every run is not split', () => {
    const a = run(1, [phase('load', [endpoint(0, 'login', 5), endpoint(1, 'search', 30)]), { ...phase('warm', [endpoint(0, 'GET /', 1, 100)]), index: 1 }]);
    const b = run(2, [phase('load', [endpoint(0, 'login', 5), endpoint(1, 'checkout', 40)]), { ...phase('warm', [endpoint(0, 'GET /', 1, 100)]), index: 1 }]);
    const pairs = pairPhases([a, b]);
    expect(pairs.map((p) => p.key)).toEqual(['single / load', 'single / load / login', 'single / load / search', 'single / load / checkout', 'single / warm']);
    expect(pairs.find((p) => p.endpoint === 'search')!.runs.map((e) => e === null)).toEqual([false, true]);
    expect(pairs.find((p) => p.endpoint === 'checkout')!.runs.map((e) => e === null)).toEqual([true, false]);
  });

  it('a phase split in one run only still pairs its endpoints with the other run\'s one endpoint', () => {
    const a = run(1, [phase('load', [endpoint(0, 'login', 5), endpoint(1, 'search', 30)])]);
    const b = run(2, [phase('load', [endpoint(0, 'search', 45, 100)])]);
    const search = pairPhases([a, b]).find((p) => p.endpoint === 'search')!;
    expect(search.runs.map((e) => (e === null ? null : mean.get(e.phase)))).toEqual([30, 45]);
  });

  it('runs stored before endpoints were measured pair their phases as before', () => {
    const old = (id: number) => run(id, [{ ...phase('load', []), endpoints: undefined }]);
    expect(pairPhases([old(1), old(2)]).map((p) => [p.key, p.endpoint])).toEqual([['single / load', null]]);
  });
});
