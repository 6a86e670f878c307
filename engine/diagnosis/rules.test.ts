import { describe, expect, it } from 'vitest';
import { diagnose, DIAGNOSIS_RULES } from './index.js';
import { clientQueueing } from './client-queueing.js';
import { earlyErrors } from './early-errors.js';
import { generatorLimited } from './generator-limited.js';
import { generatorTailNote } from '../../contract/generator-lag.js';
import { loadNotAsPlanned } from './load-not-as-planned.js';
import { noServerTiming } from './no-server-timing.js';
import { oneRun } from './one-run.js';
import { serverQueueing } from './server-queueing.js';
import { serverSlower } from './server-slower.js';
import { MIN_REQUESTS_FOR_P99, tooLittleData } from './too-little-data.js';
import { createPhase, createStoredRun, createWindow } from './test-support/stored-run-factory.js';

// Each rule on stored runs built by hand: it fires on its own pattern, with its evidence, and stays
// silent on a healthy phase and just past its threshold. The real runs are diagnosis-ground-truth.test.ts.

const healthy = createStoredRun([createPhase()], { windows: [createWindow()] });
const ids = (found: { rule: string }[]) => found.map((f) => f.rule);

describe('the diagnosis of a healthy stored run', () => {
  it('a phase with short times, nothing queued and no errors: no rule finds anything, the run is healthy', () => {
    const d = diagnose(healthy);
    expect(d.findings).toEqual([]);
    expect(d.healthy).toBe(true);
    expect(ids(d.cannotAnswer)).toEqual(['one-run']);
  });

  it('every rule id is unique and every finding names its rule', () => {
    expect(new Set(DIAGNOSIS_RULES.map((r) => r.id)).size).toBe(DIAGNOSIS_RULES.length);
  });
});

describe('generator-limited', () => {
  const lagging = (queued: number) => createStoredRun([createPhase({ times: { total: 10, processing: 2, lag: 6 } })], { windows: [createWindow({ queued })] });
  it('client queue p99 is most of total p99 and nothing waited for a connection: the tail is Loadscope\'s', () => {
    const [f] = generatorLimited.check(lagging(0));
    expect(f?.text).toContain("the tail is Loadscope's");
    expect(f?.evidence.figures.map((x) => x.name)).toContain('client queue p99');
    expect(f?.evidence.phase).toBe('steady');
  });
  it('the same lag while arrivals waited for a connection: not the generator (client-queueing)', () => {
    expect(generatorLimited.check(lagging(3))).toEqual([]);
  });
  it('a phase of 60 requests whose slowest were sent late: said with low confidence (the generator-tail note says it too: no contradiction)', () => {
    const small = createStoredRun([createPhase({ count: 60, times: { total: 10, processing: 2, lag: 6 } })], { windows: [createWindow()] });
    const [f] = generatorLimited.check(small);
    expect(f?.confidence).toBe('low');
    expect(f?.wouldChange).toContain('at least 1000 requests');
    expect(generatorTailNote(small.run.targets[0]!.phases[0]!)).not.toBeNull();
  });
  it('a phase of 60 requests without lag: silent', () => {
    const small = createStoredRun([createPhase({ count: 60, times: { total: 10, processing: 2, lag: 0.2 } })], { windows: [createWindow()] });
    expect(generatorLimited.check(small)).toEqual([]);
  });
  it('a k6 run has no client queue: silent', () => {
    const k6 = lagging(0);
    k6.run.engine = 'k6';
    expect(generatorLimited.check(k6)).toEqual([]);
  });
});

describe('client-queueing', () => {
  it('arrivals queued and the client queue is half the total: too few connections, named with the in flight seen', () => {
    const s = createStoredRun([createPhase({ executor: 'rate', times: { total: 100, processing: 20, lag: 50 } })], { windows: [createWindow({ queued: 12, inFlight: 2 })] });
    const [f] = clientQueueing.check(s);
    expect(f?.rule).toBe('client-queueing');
    expect(f?.next).toContain('at most 2 in flight');
  });
  it('no arrival ever queued: silent, whatever the lag', () => {
    const s = createStoredRun([createPhase({ times: { total: 100, processing: 20, lag: 50 } })], { windows: [createWindow({ queued: 0 })] });
    expect(clientQueueing.check(s)).toEqual([]);
  });
  it('the client queue a fifth of the total: under its share, silent', () => {
    const s = createStoredRun([createPhase({ times: { total: 100, processing: 20, lag: 20 } })], { windows: [createWindow({ queued: 5 })] });
    expect(clientQueueing.check(s)).toEqual([]);
  });
});

describe('server-queueing', () => {
  it('most of the time outside processing and the client queue, several in flight: queued inside the server', () => {
    const s = createStoredRun([createPhase({ throughput: 100, times: { total: 80, processing: 10, lag: 0.2, serverWait: 60 } })]);
    const [f] = serverQueueing.check(s);
    expect(f?.text).toContain('queued inside the server');
    expect(f?.confidence).toBe('high');
  });
  it('a queue the work ahead cannot explain (404s answered in no time on a loaded machine): not the server\'s queue, silent', () => {
    const s = createStoredRun([createPhase({ throughput: 170, times: { total: 11.7, processing: 0.01, lag: 0.3 } })]);
    expect(serverQueueing.check(s)).toEqual([]);
  });
  it('the same times with one request in flight at a time: nobody to queue behind, silent', () => {
    const s = createStoredRun([createPhase({ throughput: 10, times: { total: 80, processing: 10, lag: 0.2 } })]);
    expect(serverQueueing.check(s)).toEqual([]);
  });
  it('no Server-Timing: cannot split, silent (no-server-timing says so)', () => {
    const s = createStoredRun([createPhase({ throughput: 100, times: { total: 80, processing: null, lag: 0.2 } })]);
    expect(serverQueueing.check(s)).toEqual([]);
    expect(ids(noServerTiming.check(s))).toEqual(['no-server-timing']);
  });
  it('the wait is the client\'s own queue: not the server\'s', () => {
    const s = createStoredRun([createPhase({ throughput: 100, times: { total: 80, processing: 10, lag: 65 } })]);
    expect(serverQueueing.check(s)).toEqual([]);
  });
});

describe('server-slower', () => {
  const phases = (busyProcessing: number, busyThroughput = 100) => [
    createPhase({ index: 0, name: 'light', throughput: 100, times: { total: 10, processing: 9, lag: 0.1 } }),
    createPhase({ index: 1, name: 'busy', throughput: busyThroughput, times: { total: 40, processing: busyProcessing, lag: 0.1 } }),
  ];
  it('in flight x4, throughput flat, processing x4: each request got slower', () => {
    const [f] = serverSlower.check(createStoredRun(phases(36)));
    expect(f?.text).toContain('got slower');
    expect(f?.evidence.phase).toBe('light -> busy');
  });
  it('processing flat as in flight grew: not slower (it queued)', () => {
    expect(serverSlower.check(createStoredRun(phases(9)))).toEqual([]);
  });
  it('throughput grew with the load: the server scaled, silent', () => {
    expect(serverSlower.check(createStoredRun(phases(36, 300)))).toEqual([]);
  });
});

describe('early-errors', () => {
  it('the first window all 404s: misconfiguration, with the first reason', () => {
    const phase = createPhase({ errors: { http: 40 }, ok: 0, count: 40, errorReasons: [{ kind: 'http', reason: 'status 404', count: 40 }] });
    const s = createStoredRun([phase], { windows: [createWindow({ count: 40, errors: { http: 40 } })] });
    const [f] = earlyErrors.check(s);
    expect(f?.text).toContain('status 404');
    expect(f?.confidence).toBe('high');
  });
  it('errors only late in the phase: not early', () => {
    const s = createStoredRun([createPhase({ errors: { timeout: 40 } })], {
      windows: [createWindow({ tMs: 250, count: 50 }), createWindow({ tMs: 500, count: 50, errors: { timeout: 50 } })],
    });
    expect(earlyErrors.check(s)).toEqual([]);
  });
});

describe('load-not-as-planned', () => {
  const scenario = { phases: [{ executor: 'rate', rate: 200, durationMs: 1000, requests: [{ path: '/' }] }] };
  it('a rate phase that completed half its planned rate: said with both rates', () => {
    const s = createStoredRun([createPhase({ executor: 'rate', count: 200, throughput: 100 })], { scenario });
    const [f] = loadNotAsPlanned.check(s);
    expect(f?.text).toContain('100.0 req/s completed against 200.0 planned');
  });
  it('fewer requests than planned: said with both counts', () => {
    const s = createStoredRun([createPhase({ executor: 'rate', count: 100, throughput: 200 })], { scenario });
    expect(loadNotAsPlanned.check(s)[0]?.text).toContain('100 of the 200 planned requests');
  });
  it('as planned: silent; a matrix over phases: unknown, silent', () => {
    expect(loadNotAsPlanned.check(createStoredRun([createPhase({ executor: 'rate', count: 200, throughput: 195 })], { scenario }))).toEqual([]);
    const matrix = createStoredRun([createPhase({ executor: 'rate', count: 10, throughput: 10 })], { scenario, run: { cells: [{ index: 0, label: 'a', params: { 'phases[0].rate': 200 } }] } });
    expect(loadNotAsPlanned.check(matrix)).toEqual([]);
  });
});

describe('what a run cannot answer', () => {
  it(`a phase under ${MIN_REQUESTS_FOR_P99} requests: too little data for its p99`, () => {
    expect(ids(tooLittleData.check(createStoredRun([createPhase({ count: 300 })])))).toEqual(['too-little-data']);
    expect(tooLittleData.check(healthy)).toEqual([]);
  });
  it('a run in a group of three: it has an interval, one-run is silent', () => {
    expect(oneRun.check(createStoredRun([createPhase()], { run: { group: { id: 1, index: 0, size: 3 } } }))).toEqual([]);
  });
});
