import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capacityModeOf, stepInputsOf, stepOffered, targetCapacity } from '../../contract/capacity/steps.js';
import type { CapacitySearch, ScenarioInput } from '../../contract/scenario.js';
import { Scenario } from '../../contract/scenario.js';
import { createEngine, type Engine } from '../engine.js';
import { expectSearchAgreesWithFigures } from './test-support/capacity-checks.js';

// The capacity search against real bundled servers. The known capacity comes from a server whose
// limit is time, not CPU: `single` with concurrency 1 answering /sleep?ms=20 serves one request at a
// time, each at least 20 ms (a timer is a lower bound: a busy machine makes it longer, never shorter),
// so never more than 50 req/s. Which steps held is the machine's to decide (a loaded one lags and
// stalls); so each search is checked against its own stored figures (test-support/capacity-checks.ts)
// and against the bounds no machine can beat, never against a particular sequence of steps.

let dir: string;
let engine: Engine;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-capacity-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function search(input: ScenarioInput) {
  const { runId } = await engine.handlers['runs:start']({ scenario: { text: JSON.stringify(input) }, quick: false, set: {} });
  await engine.waitForRun(runId);
  const run = await engine.handlers['runs:get']({ runId });
  const { windows, samples } = engine.store.getWindows(runId);
  const scenario = Scenario.parse(input);
  const target = run.targets[0]!;
  const first = scenario.phases[0]!;
  const start = first.executor === 'rate' ? first.rate : first.executor === 'closed' ? first.users : 0;
  const mode = capacityModeOf(first.executor);
  const capacity = targetCapacity(scenario.capacity!, stepInputsOf(mode, start, target.id, target.phases, windows, samples));
  expectSearchAgreesWithFigures(
    { search: scenario.capacity!, mode, start, stepMs: 'durationMs' in first ? (first.durationMs ?? 0) : 0, phases: target.phases, windows: windows.filter((w) => w.targetId === target.id) },
    { steps: capacity.steps, sustainable: capacity.result.sustainable, interval: capacity.result.interval, limitedBy: capacity.result.limitedBy, knee: capacity.result.kneeStep === null ? null : capacity.steps[capacity.result.kneeStep]!.offered, ended: capacity.ended },
  );
  return { run, target, capacity };
}

const sequential = (capacity: Partial<CapacitySearch> & Pick<CapacitySearch, 'latency'>, durationMs = 2000): ScenarioInput => ({
  name: 'capacity-known',
  servers: [{ architecture: 'single', options: { concurrency: 1 } }],
  phases: [{ executor: 'rate', rate: 20, durationMs, timeoutMs: 5000, requests: [{ path: '/sleep?ms=20' }] }],
  capacity: { tolerance: 0.1, maxRate: 1000, ...capacity },
});

describe('capacity search', () => {
  it('finds a known capacity (a sequential server at >= 20 ms a request: at most 50 req/s): every verdict from its figures, nothing above 50 held, each step a stored phase on one timeline', async () => {
    // a generous lag bound: a busy machine's generator runs some ms late, and this search is about the server
    const { run, target, capacity } = await search(sequential({ maxLagMs: 100, latency: { sample: 'total', stat: 'p99', maxMs: 300 } }));
    expect(run.status).toBe('completed');
    const { result, steps } = capacity;
    if (process.env.LS_DEBUG) console.log(JSON.stringify({ steps: steps.map((s) => [s.offered, Math.round(s.throughput), s.total.p99, s.verdict]), result, usl: capacity.usl && { sigma: capacity.usl.sigma, kappa: capacity.usl.kappa, lambda: capacity.usl.lambda, r2: capacity.usl.r2 } }));
    // what no machine can beat: one request at a time, each >= 20 ms (timers may fire up to a
    // millisecond early: 19 ms), so no step achieved more than ~52.6 req/s and none offered more held
    for (const s of steps) expect(s.throughput, `${s.offered} req/s achieved ${s.throughput}`).toBeLessThanOrEqual(1000 / 19);
    for (const s of steps.filter((s) => s.offered > 1000 / 19 / 0.95)) expect(s.verdict.held, `${s.offered} req/s held`).toBe(false);
    // 20, 40, 80: a limit is found by the third step at the latest (80 req/s cannot hold), then the
    // search narrows the bracket or the generator ends it; either way it completes
    if (result.limitedBy === 'generator') {
      // under load the generator may fall behind first (a fresh clone under four busy loops did): no
      // server bound then, and the result says whose limit it was
      expect(result.detail, JSON.stringify({ steps: steps.map((s) => [s.offered, s.throughput, s.verdict]), result })).toMatch(/the load generator could not keep its schedule/);
    } else {
      expect(result.interval[1], JSON.stringify({ steps: steps.map((s) => [s.offered, s.throughput, s.verdict]), result })).not.toBeNull();
      expect(result.interval[1]!).toBeLessThanOrEqual(80);
    }
    if (result.sustainable !== null) expect(result.sustainable).toBeLessThanOrEqual(1000 / 19 / 0.95);
    expect(capacity.ended).toBe('complete');
    // each step is a phase named by its rate, one after another on the server run's timeline
    expect(target.phases.map((p) => stepOffered('rate', p.name))).toEqual(steps.map((s) => s.offered));
    for (let i = 1; i < target.phases.length; i++) expect(target.phases[i]!.startedMs).toBeGreaterThanOrEqual(target.phases[i - 1]!.startedMs + target.phases[i - 1]!.durationMs);
    expect(steps[result.kneeStep!]!.verdict.held).toBe(false);
  }, 150_000);

  it('stops at its time bound: no step starts whose arrivals would end after maxDurationMs, and says so', async () => {
    const input: ScenarioInput = {
      name: 'capacity-bounded',
      servers: [{ architecture: 'single' }],
      phases: [{ executor: 'rate', rate: 20, durationMs: 1000, timeoutMs: 1000, requests: [{ path: '/sleep?ms=1' }] }],
      // limits no machine breaks (a busy one's late tail lowers a 1 s step's achieved rate), so only the time bound ends it
      capacity: { maxRate: 100_000, maxDurationMs: 5000, maxLagMs: 10_000, minAchievedRatio: 0, maxErrorRate: 1, latency: { sample: 'total', stat: 'p99', maxMs: 10_000 } },
    };
    const { target, capacity } = await search(input);
    expect(capacity.ended).toBe('time bound');
    expect(capacity.steps.length).toBeGreaterThanOrEqual(1);
    expect(capacity.steps.length).toBeLessThanOrEqual(5);
    for (const p of target.phases) expect(p.startedMs + 1000).toBeLessThanOrEqual(5000);
    const last = target.phases.at(-1)!;
    // its last answers get at most timeoutMs (1 s) more
    expect(last.startedMs + last.durationMs).toBeLessThanOrEqual(5000 + 1000);
    expect(capacity.result.limitedBy).toBe('max load');
  }, 120_000);

  it('a generator that cannot keep its schedule ends the search, reported as the generator, not the server', async () => {
    // a lag bound no generator meets: the first step is judged the generator's
    const { capacity } = await search(sequential({ maxLagMs: 1e-6, latency: { sample: 'total', stat: 'p99', maxMs: 300 } }, 1000));
    expect(capacity.steps).toHaveLength(1);
    expect(capacity.result.limitedBy).toBe('generator');
    expect(capacity.result.detail).toMatch(/the load generator could not keep its schedule at 20 req\/s/);
  }, 120_000);

  it('validation names the JSON path when the scenario cannot be searched', async () => {
    const bad = { ...sequential({ latency: { sample: 'total', stat: 'p99', maxMs: 300 } }), phases: [{ executor: 'burst', count: 2, requests: [{ path: '/' }] }] };
    const answer = await engine.handlers['scenarios:validate']({ text: JSON.stringify(bad), quick: false });
    expect(answer).toMatchObject({ ok: false, issues: [{ path: 'phases[0].executor', message: expect.stringMatching(/steps a rate phase \(its rate\) or a closed phase \(its users\), not 'burst'/) }] });
    const counted = { ...bad, phases: [{ executor: 'closed', users: 2, count: 100, durationMs: 1000, requests: [{ path: '/' }] }] };
    expect(await engine.handlers['scenarios:validate']({ text: JSON.stringify(counted), quick: false })).toMatchObject({ ok: false, issues: [{ path: 'phases[0].count', message: expect.stringMatching(/lasts durationMs/) }] });
  });

  it('users mode: steps whole closed-loop users against a sequential server at >= 50 ms a request, every verdict from its figures', async () => {
    // a sequential server serves N closed-loop users in turn: each request waits for the others, so
    // about N x 50 ms; with total p90 at most 245 ms a quiet machine holds 4 users and breaks at 5,
    // a busy one (late users queue less, stalls add time) may bracket elsewhere: the checks say which
    const input: ScenarioInput = {
      name: 'capacity-users',
      servers: [{ architecture: 'single', options: { concurrency: 1 } }],
      phases: [{ executor: 'closed', users: 1, durationMs: 1500, timeoutMs: 5000, requests: [{ path: '/sleep?ms=50' }] }],
      capacity: { maxUsers: 64, latency: { sample: 'total', stat: 'p90', maxMs: 245 } },
    };
    const { run, target, capacity } = await search(input);
    expect(run.status).toBe('completed');
    if (process.env.LS_DEBUG) console.log(JSON.stringify(capacity.steps.map((s) => [s.offered, Math.round(s.throughput), s.total.p90, s.verdict])));
    expect(capacity.mode).toBe('users');
    expect(capacity.ended).toBe('complete');
    expect(target.phases.map((p) => p.name)).toEqual(capacity.steps.map((s) => (s.offered === 1 ? '1 user' : `${s.offered} users`)));
    // what no machine can beat: one request at a time, each >= 50 ms, so at most ~20 req/s whatever
    // the users; and a limit is found (64 users queue for 3 s a request: the latency bound breaks)
    for (const s of capacity.steps) expect(s.throughput, `${s.offered} users achieved ${s.throughput}`).toBeLessThanOrEqual(1000 / 49);
    expect(capacity.result.interval[1]).not.toBeNull();
    expect(capacity.result.detail).toMatch(/ at \d+ users?$|could not keep its schedule at \d+ users?/);
  }, 150_000);
});
