import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capacityModeOf, stepInputsOf, stepOffered, targetCapacity } from '../../contract/capacity/steps.js';
import type { CapacitySearch, ScenarioInput } from '../../contract/scenario.js';
import { Scenario } from '../../contract/scenario.js';
import { createEngine, type Engine } from '../engine.js';

// The capacity search against real bundled servers. The known capacity comes from a server whose
// limit is time, not CPU: `single` with concurrency 1 answering /sleep?ms=20 serves exactly one
// request per 20 ms however busy the machine is, so 50 req/s (a little less with timer overhead).

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
  return { run, target, capacity: targetCapacity(scenario.capacity!, stepInputsOf(mode, start, target.id, target.phases, windows, samples)) };
}

const sequential = (capacity: Partial<CapacitySearch> & Pick<CapacitySearch, 'latency'>, durationMs = 2000): ScenarioInput => ({
  name: 'capacity-known',
  servers: [{ architecture: 'single', options: { concurrency: 1 } }],
  phases: [{ executor: 'rate', rate: 20, durationMs, timeoutMs: 5000, requests: [{ path: '/sleep?ms=20' }] }],
  capacity: { tolerance: 0.1, maxRate: 1000, ...capacity },
});

describe('capacity search', () => {
  it('finds a known capacity (a sequential server at 20 ms a request: 50 req/s) within 20 %, each step a stored phase on one timeline', async () => {
    const { run, target, capacity } = await search(sequential({ latency: { sample: 'total', stat: 'p99', maxMs: 300 } }));
    expect(run.status).toBe('completed');
    const { result, steps } = capacity;
    if (process.env.LS_DEBUG) console.log(JSON.stringify({ steps: steps.map((s) => [s.offered, Math.round(s.throughput), s.total.p99, s.verdict]), result, usl: capacity.usl && { sigma: capacity.usl.sigma, kappa: capacity.usl.kappa, lambda: capacity.usl.lambda, r2: capacity.usl.r2 } }));
    // 20, 40 hold; 80 breaks; then it bisects towards 50
    expect(steps.slice(0, 3).map((s) => [s.offered, s.verdict.held])).toEqual([[20, true], [40, true], [80, false]]);
    expect(result.sustainable).toBeGreaterThanOrEqual(40);
    expect(result.sustainable).toBeLessThanOrEqual(55);
    expect(result.interval[1]).toBeLessThanOrEqual(60);
    expect(['throughput', 'latency']).toContain(result.limitedBy);
    expect(capacity.ended).toBe('complete');
    // each step is a phase named by its rate, one after another on the server run's timeline
    expect(target.phases.map((p) => stepOffered('rate', p.name))).toEqual(steps.map((s) => s.offered));
    for (let i = 1; i < target.phases.length; i++) expect(target.phases[i]!.startedMs).toBeGreaterThanOrEqual(target.phases[i - 1]!.startedMs + target.phases[i - 1]!.durationMs);
    // the knee is the lowest broken step, whose wait (queued in the server) dwarfs the held steps'
    const knee = steps[result.kneeStep!]!;
    expect(knee.verdict.held).toBe(false);
    expect(knee.total.p99).toBeGreaterThan(steps[0]!.total.p99);
  }, 150_000);

  it('stops at its time bound: no step starts whose arrivals would end after maxDurationMs, and says so', async () => {
    const input: ScenarioInput = {
      name: 'capacity-bounded',
      servers: [{ architecture: 'single' }],
      phases: [{ executor: 'rate', rate: 20, durationMs: 1000, timeoutMs: 1000, requests: [{ path: '/sleep?ms=1' }] }],
      capacity: { maxRate: 100_000, maxDurationMs: 5000, maxLagMs: 10_000, latency: { sample: 'total', stat: 'p99', maxMs: 10_000 } },
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

  it('users mode: finds a known number of users (a sequential server at 50 ms a request) by stepping closed-loop users', async () => {
    // a sequential server serves N closed-loop users in turn: each request waits for the other N - 1,
    // so its total time is N x 50 ms (and never less, however busy the machine): with total p90 at
    // most 245 ms, 4 users hold (200 ms, 45 ms to spare for the machine) and 5 break (250 ms)
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
    // 1, 2, 4 hold; 8 breaks; then it bisects (6, 5): 4 users, bracket [4, 5]
    expect(capacity.steps.slice(0, 4).map((s) => [s.offered, s.verdict.held])).toEqual([[1, true], [2, true], [4, true], [8, false]]);
    expect(capacity.result).toMatchObject({ sustainable: 4, interval: [4, 5], limitedBy: 'latency' });
    expect(capacity.result.detail).toMatch(/ at 5 users$/);
    expect(capacity.ended).toBe('complete');
    expect(target.phases.map((p) => p.name)).toEqual(capacity.steps.map((s) => `${s.offered} users`));
    for (const s of capacity.steps) expect(Number.isInteger(s.offered)).toBe(true);
    // the queue the users form: 4 users' median is about 4 times 1 user's
    expect(capacity.steps[2]!.total.p50).toBeGreaterThan(capacity.steps[0]!.total.p50 * 3);
  }, 150_000);
});
