import { describe, expect, it } from 'vitest';
import { latencyBucketOf } from '../../contract/latency-buckets.js';
import type { EndpointResult, LatencyStats, PhaseResult } from '../../contract/results.js';
import { bimodal } from './bimodal.js';
import { errorsRiseWithLoad } from './errors-rise-with-load.js';
import { diagnose } from './index.js';
import { lateBehindLongWork } from './late-behind-long-work.js';
import { serverQueueing } from './server-queueing.js';
import { createPhase, createStoredRun, createWindow, flatStats } from './test-support/stored-run-factory.js';
import { transferBound } from './transfer-bound.js';

// The rules on the shape of a run's times (issue 38): transfer-bound, bimodal, errors-rise-with-load
// and late-behind-long-work, each on stored runs built by hand: it fires on its own pattern with its
// evidence, and stays silent on the look-alike it must not be taken for. Their real runs are in
// diagnosis-ground-truth.test.ts.

const ids = (found: { rule: string }[]) => found.map((f) => f.rule);

describe('transfer-bound', () => {
  const phase = (transferMs: number, ttfbMs: number) => createPhase({
    times: { total: transferMs + ttfbMs, processing: ttfbMs - 0.5, lag: 0.1 },
    ttfb: flatStats(ttfbMs),
    transfer: flatStats(transferMs),
  });
  it('80 ms of a 100 ms request after the first byte: the body is the limit, with both times as evidence', () => {
    const [f] = transferBound.check(createStoredRun([phase(80, 20)]));
    expect(f?.text).toContain('80 % of each request');
    expect(f?.evidence.figures.map((x) => x.name)).toEqual(['transfer mean', 'time to first byte mean', 'total mean', 'transfer share']);
  });
  it('the same 80 ms after a 200 ms wait for the first byte: the server\'s time leads, silent', () => {
    expect(transferBound.check(createStoredRun([phase(80, 200)]))).toEqual([]);
  });
  it('0.8 ms of a 1 ms request after the first byte (80 %, but under a millisecond): nobody\'s problem, silent', () => {
    expect(transferBound.check(createStoredRun([phase(0.8, 0.2)]))).toEqual([]);
  });
  it('a phase of SSE streams held 5 s (its time after the first byte is its events): silent, not a slow body', () => {
    const streams = { ...phase(5000, 20), stream: { streams: 20, messages: 2000, rate: 400, bytes: 80_000, sent: 0, ttfe: flatStats(50), gap: flatStats(50), rtt: null } };
    expect(transferBound.check(createStoredRun([streams]))).toEqual([]);
  });
  it('a run stored before transfer was measured: silent, not a 0 ms transfer', () => {
    expect(transferBound.check(createStoredRun([createPhase({ ttfb: undefined, transfer: undefined })]))).toEqual([]);
  });
  it('two endpoints, one of them the large download: it is named', () => {
    const endpoints = [endpoint('GET /video', 0, { transfer: 300, count: 100 }), endpoint('GET /page', 1, { transfer: 1, count: 900 })];
    const [f] = transferBound.check(createStoredRun([{ ...phase(80, 20), endpoints }]));
    expect(f?.evidence.endpoint).toBe('GET /video');
  });
});

/** An endpoint of a phase, flat at `total` ms (transfer as given). */
function endpoint(name: string, index: number, o: { total?: number; transfer?: number; count?: number; totalStats?: LatencyStats }): EndpointResult {
  const count = o.count ?? 100;
  const total = o.total ?? 10;
  return {
    name, index, count, ok: count, errors: {}, throughput: 100,
    total: o.totalStats ?? flatStats(total, count), wait: flatStats(0.1, count), processing: flatStats(total, count), serverWait: null, lag: flatStats(0.1, count),
    ttfb: flatStats(total, count), transfer: flatStats(o.transfer ?? 0.01, count),
  };
}

/** Windows whose total buckets hold `bands`: [ms, requests] pairs, spread over four windows. */
function bucketWindows(bands: [ms: number, requests: number][]) {
  return [0, 1, 2, 3].map((i) => createWindow({
    tMs: 250 * (i + 1),
    totalBuckets: bands.flatMap(([ms, n]) => [latencyBucketOf(ms * 1000), n / 4]),
  }));
}

describe('bimodal', () => {
  // 1000 requests: 950 at about 2 ms, 50 at about 300 ms (p99 in the slow band)
  const tail = { ...flatStats(2), p50: 2, p90: 2.5, p95: 3, p99: 310, max: 330 };
  const twoBands = bucketWindows([[1.8, 400], [2.2, 500], [2.8, 50], [300, 40], [330, 10]]);
  const phase = (endpoints?: EndpointResult[]): PhaseResult => createPhase({ count: 1000, total: tail, ...(endpoints ? { endpoints } : {}) });

  it('5 % of one endpoint\'s requests at 300 ms, the rest at 2 ms: two bands, not an endpoint', () => {
    const [f] = bimodal.check(createStoredRun([phase()], { windows: twoBands }));
    expect(f?.text).toContain('two bands');
    expect(f?.text).toContain('5.0 % of requests');
    expect(f?.text).toContain('a share of the same requests');
    expect(f?.evidence.endpoint).toBeUndefined();
  });
  it('the slow band is one endpoint whose median is slow: it is named as the slow band', () => {
    const endpoints = [endpoint('login', 0, { total: 300, count: 50 }), endpoint('home', 1, { totalStats: { ...flatStats(2, 950), p99: 3 }, count: 950 })];
    const [f] = bimodal.check(createStoredRun([phase(endpoints)], { windows: twoBands }));
    expect(f?.text).toContain('the slow band is endpoint login: one slow endpoint, not the service');
    expect(f?.evidence.endpoint).toBe('login');
  });
  it('the same p99 / p50 over a tail that thins out steadily (every doubling holds fewer): one long tail, silent', () => {
    const longTail = bucketWindows([[2, 600], [4, 200], [8, 100], [16, 50], [32, 25], [64, 12], [128, 8], [256, 5]]);
    expect(bimodal.check(createStoredRun([phase()], { windows: longTail }))).toEqual([]);
  });
  it('a slow band of 6 requests (one stall of a busy machine): too few to be a band, silent', () => {
    const stall = bucketWindows([[2, 994], [300, 6]]);
    expect(bimodal.check(createStoredRun([phase()], { windows: stall }))).toEqual([]);
  });
  it('two bands 3x apart (p99 / p50 of 3): the tail is near the median, silent', () => {
    const near = createPhase({ count: 1000, total: { ...flatStats(2), p50: 2, p99: 6 } });
    expect(bimodal.check(createStoredRun([near], { windows: bucketWindows([[2, 900], [6, 100]]) }))).toEqual([]);
  });
  it('the same 50 slow requests all in the phase\'s first window (a slow start: cold connections): not a band, silent', () => {
    const slowStart = [createWindow({ tMs: 250, totalBuckets: [latencyBucketOf(300_000), 50] }), ...bucketWindows([[2, 950]])];
    expect(bimodal.check(createStoredRun([phase()], { windows: slowStart }))).toEqual([]);
  });
  it('windows stored without heatmap buckets: silent, whatever the percentiles', () => {
    expect(bimodal.check(createStoredRun([phase()], { windows: [createWindow()] }))).toEqual([]);
  });
});

describe('errors-rise-with-load', () => {
  const run = (lightErrors: number, busyErrors: number, busyInFlight = 8) => createStoredRun(
    [
      createPhase({ index: 0, name: 'light', count: 200, errors: lightErrors > 0 ? { http: lightErrors } : {} }),
      createPhase({ index: 1, name: 'busy', startedMs: 2000, count: 800, errors: { http: busyErrors }, errorReasons: [{ kind: 'http', reason: 'status 503', count: busyErrors }] }),
    ],
    { windows: [createWindow({ phaseIndex: 0, inFlight: 1 }), createWindow({ phaseIndex: 1, tMs: 2250, inFlight: busyInFlight })] },
  );
  it('none failed at 1 in flight, 30 % at 8: errors rose with the load, with the reason', () => {
    const [f] = errorsRiseWithLoad.check(run(0, 240));
    expect(f?.text).toContain('30 % of requests failed in phase busy (8.0 in flight) against 0.0 % in phase light');
    expect(f?.text).toContain('status 503');
    expect(f?.evidence.phase).toBe('light -> busy');
  });
  it('the light phase failed as much from the start: not the load (early-errors\' case), silent', () => {
    expect(errorsRiseWithLoad.check(run(60, 240))).toEqual([]);
  });
  it('2 % failed under load: too few to matter, silent', () => {
    expect(errorsRiseWithLoad.check(run(0, 16))).toEqual([]);
  });
  it('the errors rose but the load did not (1 then 1.5 in flight): not load, silent', () => {
    expect(errorsRiseWithLoad.check(run(0, 240, 1.5))).toEqual([]);
  });
  it('one phase only: nothing to compare, silent', () => {
    const one = createStoredRun([createPhase({ count: 800, errors: { http: 240 } })], { windows: [createWindow({ inFlight: 8 })] });
    expect(errorsRiseWithLoad.check(one)).toEqual([]);
  });
});

describe('late-behind-long-work', () => {
  // phase early: 800 ms requests from 0 to 3.2 s; phase late from 100 ms: 1 ms of work each
  const early = (o: Parameters<typeof createPhase>[0] = {}) => createPhase({ index: 0, name: 'early', throughput: 1.25, count: 4, durationMs: 3200, times: { total: 2000, processing: 800, lag: 0.1 }, ...o });
  const late = (o: Parameters<typeof createPhase>[0] = {}) => createPhase({ index: 1, name: 'late', startedMs: 100, durationMs: 3100, throughput: 10, count: 30, times: { total: 1500, processing: 1, lag: 0.1 }, ...o });

  it('a phase starting while 800 ms requests run waits 1.5 s for 1 ms of work: behind long work, and server-queueing stays silent on it', () => {
    const s = createStoredRun([early(), late()]);
    const [f] = lateBehindLongWork.check(s);
    expect(f?.text).toContain("behind phase early's long requests (800 ms each)");
    expect(f?.evidence.phase).toBe('early -> late');
    expect(f?.evidence.range).toEqual({ fromMs: 100, toMs: 3200 });
    expect(serverQueueing.check(s).map((x) => x.evidence.phase)).not.toContain('late');
  });
  it('the same late phase starting after the long one ended: not behind it, silent', () => {
    expect(lateBehindLongWork.check(createStoredRun([early(), late({ startedMs: 3300 })]))).toEqual([]);
  });
  it('overlapping, but the earlier phase\'s work is as short as the late one\'s: not long work, silent', () => {
    const shortEarly = early({ times: { total: 2000, processing: 2, lag: 0.1 } });
    expect(lateBehindLongWork.check(createStoredRun([shortEarly, late()]))).toEqual([]);
  });
  it('the late phase waited 50 ms for 20 ms of its own work (2.5x): its own work explains it, silent', () => {
    expect(lateBehindLongWork.check(createStoredRun([early(), late({ times: { total: 70, processing: 20, lag: 0.1 } })]))).toEqual([]);
  });
  it('the late phase waited 5 ms for 0.1 ms of work (50x, but 5 ms): under the floor, silent', () => {
    expect(lateBehindLongWork.check(createStoredRun([early(), late({ times: { total: 5.2, processing: 0.1, lag: 0.1 } })]))).toEqual([]);
  });
  it('the late phase\'s wait is the client\'s own queue: not the server\'s, silent', () => {
    expect(lateBehindLongWork.check(createStoredRun([early(), late({ times: { total: 1500, processing: 1, lag: 1490 } })]))).toEqual([]);
  });
  it('no Server-Timing: wait unknown, silent', () => {
    expect(lateBehindLongWork.check(createStoredRun([early({ times: { total: 2000, processing: null, lag: 0.1 } }), late({ times: { total: 1500, processing: null, lag: 0.1 } })]))).toEqual([]);
  });
});

describe('the shape rules on a healthy stored run', () => {
  it('a phase with short flat times, nothing queued, no errors: none of them finds anything', () => {
    const d = diagnose(createStoredRun([createPhase()], { windows: bucketWindows([[20, 2000]]) }));
    expect(ids(d.findings)).toEqual([]);
  });
});
