import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatencyStats, PhaseResult } from '../results.js';
import { capacityOf, judgeStep, nextOffered, type CapacityLimits, type CapacityStep, type SearchPlan, type StepVerdict } from './search.js';

const plan: SearchPlan = { mode: 'rate', start: 50, max: 20_000, factor: 2, tolerance: 0.1, maxSteps: 16 };
const limits: CapacityLimits = { maxErrorRate: 0.01, minAchievedRatio: 0.95, maxLagMs: 5, latency: { sample: 'total', stat: 'p99', maxMs: 100 } };

/** Runs the search against a stand-in judge, as the engine does against a real server. */
function search(judge: (offered: number) => StepVerdict, p = plan): CapacityStep[] {
  const steps: CapacityStep[] = [];
  for (let offered = nextOffered(steps, p); offered !== null; offered = nextOffered(steps, p)) steps.push({ offered, throughput: 0, verdict: judge(offered) });
  return steps;
}
const atCapacity = (c: number) => (rate: number): StepVerdict => (rate <= c ? { held: true } : { held: false, limit: 'latency', detail: 'p99 too high' });

const flat = (v: number): LatencyStats => ({ count: 100, mean: v, min: v, max: v, stddev: 0, p50: v, p66: v, p75: v, p80: v, p90: v, p95: v, p98: v, p99: v, p999: v });
function phase(o: Partial<PhaseResult>): PhaseResult {
  return { index: 0, name: 'step', executor: 'rate', clients: 1, startedMs: 0, durationMs: 1000, count: 100, ok: 100, errors: {}, throughput: 100, total: flat(10), wait: flat(2), processing: flat(8), serverWait: null, lag: flat(0.1), ...o };
}

describe('the capacity search', () => {
  it('brackets any known capacity within the tolerance, in a bounded number of steps', () => {
    fc.assert(
      fc.property(fc.double({ min: 60, max: 15_000, noNaN: true }), (capacity) => {
        const steps = search(atCapacity(capacity));
        const r = capacityOf('rate', steps);
        expect(steps.length).toBeLessThanOrEqual(plan.maxSteps);
        expect(r.sustainable!).toBeLessThanOrEqual(capacity);
        expect(r.interval[1]!).toBeGreaterThan(capacity);
        expect((r.interval[1]! - r.sustainable!) / r.sustainable!).toBeLessThanOrEqual(plan.tolerance);
        expect(r.limitedBy).toBe('latency');
        expect(steps[r.kneeStep!]!.offered).toBe(r.interval[1]);
      }),
      { numRuns: 300, seed: 4 },
    );
  });

  it('stops at its step bound and at the maximum rate, saying nothing broke', () => {
    expect(search(atCapacity(1e9), { ...plan, maxSteps: 3 })).toHaveLength(3);
    const steps = search(atCapacity(1e9));
    expect(steps.at(-1)!.offered).toBe(plan.max);
    expect(capacityOf('rate', steps)).toMatchObject({ sustainable: plan.max, interval: [plan.max, null], limitedBy: 'max load', kneeStep: null });
  });

  it('steps down when even the first rate breaks, and gives up a factor^3 below the start', () => {
    expect(capacityOf('rate', search(atCapacity(20))).sustainable).toBeGreaterThan(0);
    const none = search(atCapacity(1));
    expect(none.map((s) => s.offered)).toEqual([50, 25, 12.5, 6.25]);
    expect(capacityOf('rate', none)).toMatchObject({ sustainable: null, limitedBy: 'latency' });
  });

  it('stops at once when the generator could not keep its schedule, and says the generator was the limit', () => {
    const steps = search((rate) => (rate < 400 ? { held: true } : { held: false, limit: 'generator', detail: 'schedule lag p90 9 ms > 5 ms' }));
    expect(steps.map((s) => s.offered)).toEqual([50, 100, 200, 400]);
    const r = capacityOf('rate', steps);
    expect(r.limitedBy).toBe('generator');
    expect(r.detail).toMatch(/load generator could not keep its schedule at 400 req\/s.*at least 200 req\/s, not measured beyond/);
  });

  it("judges a stored step's phase: the server's errors, achieved rate and latency, then the generator's lag", () => {
    expect(judgeStep('rate', 100, phase({}), limits)).toEqual({ held: true });
    expect(judgeStep('rate', 100, phase({ lag: flat(9) }), limits)).toMatchObject({ held: false, limit: 'generator' });
    // the server failed its latency: the server's, though the generator lagged too (verdicts.test.ts)
    expect(judgeStep('rate', 100, phase({ lag: flat(9), total: flat(500) }), limits)).toMatchObject({ held: false, limit: 'latency' });
    // lag while arrivals waited for a slot (every connection busy) is the server's: judged by the rest
    expect(judgeStep('rate', 100, phase({ lag: flat(9), total: flat(500) }), limits, 12)).toMatchObject({ held: false, limit: 'latency' });
    expect(judgeStep('rate', 100, phase({ ok: 90, errors: { http: 10 } }), limits)).toMatchObject({ held: false, limit: 'errors', detail: 'errors 10 % > 1 %' });
    expect(judgeStep('rate', 100, phase({ throughput: 80 }), limits)).toMatchObject({ held: false, limit: 'throughput', detail: 'achieved 80 req/s of 100 offered' });
    expect(judgeStep('rate', 100, phase({ total: flat(150) }), limits)).toMatchObject({ held: false, limit: 'latency', detail: 'total p99 150 ms > 100 ms' });
    expect(judgeStep('rate', 100, phase({ processing: null }), { ...limits, latency: { sample: 'processing', stat: 'p50', maxMs: 1 } })).toMatchObject({ held: false, detail: 'no processing times measured' });
  });

  it('users mode: whole users, bracketed to adjacent numbers, and the knee at the fewest that broke', () => {
    const users: SearchPlan = { mode: 'users', start: 1, max: 1000, factor: 2, tolerance: 0.1, maxSteps: 20 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 900 }), (capacity) => {
        const steps = search(atCapacity(capacity), users);
        const r = capacityOf('users', steps);
        for (const s of steps) expect(Number.isInteger(s.offered)).toBe(true);
        expect(r.sustainable!).toBeLessThanOrEqual(capacity);
        expect(r.interval[1]!).toBeGreaterThan(capacity);
        const held = r.sustainable!;
        expect(r.interval[1]! - held <= 1 || (r.interval[1]! - held) / held <= users.tolerance).toBe(true);
        expect(r.detail).toMatch(/ users$/);
      }),
      { numRuns: 200, seed: 7 },
    );
    // 1 user breaks: nothing below it to try
    expect(search(atCapacity(0), users).map((s) => s.offered)).toEqual([1]);
    // a factor that rounds back to the same number still moves on
    expect(search(atCapacity(3), { ...users, factor: 1.1 }).slice(0, 3).map((s) => s.offered)).toEqual([1, 2, 3]);
  });

  it('users mode judges throughput against the best that held with fewer users, not against an offered rate', () => {
    const held = (offered: number, throughput: number): CapacityStep => ({ offered, throughput, verdict: { held: true } });
    const earlier = [held(1, 50), held(2, 100), held(4, 190)];
    // a closed loop's throughput is whatever the server gives: 100 req/s with 8 users is no shortfall on its own
    expect(judgeStep('users', 8, phase({ throughput: 185 }), limits, 0, earlier)).toEqual({ held: true });
    expect(judgeStep('users', 8, phase({ throughput: 150 }), limits, 0, earlier)).toMatchObject({ held: false, limit: 'throughput', detail: 'throughput 150 req/s with 8 users, below 95 % of 190 req/s with 4' });
    // only steps with fewer users count
    expect(judgeStep('users', 3, phase({ throughput: 120 }), limits, 0, earlier)).toEqual({ held: true });
    expect(judgeStep('users', 8, phase({ throughput: 200, total: flat(150) }), limits, 0, earlier)).toMatchObject({ held: false, limit: 'latency' });
    // a users step judges its lag by the median: its new users' first sends (connections opened at the
    // step's start) may be a tenth of a slow step's sends
    const firstSendsLate = { ...flat(0.1), p90: 9, p95: 9, p98: 9, p99: 9, p999: 9 };
    expect(judgeStep('users', 8, phase({ throughput: 200, lag: firstSendsLate }), limits, 0, earlier)).toEqual({ held: true });
    expect(judgeStep('rate', 100, phase({ lag: firstSendsLate }), limits)).toMatchObject({ held: false, limit: 'generator', detail: 'schedule lag p90 9 ms > 5 ms' });
    expect(judgeStep('users', 8, phase({ throughput: 200, count: 200, ok: 200, lag: flat(9) }), limits, 0, earlier)).toMatchObject({ held: false, limit: 'generator', detail: 'schedule lag p50 9 ms > 5 ms' });
  });
});
