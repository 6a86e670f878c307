import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatencyStats, PhaseResult } from '../results.js';
import { capacityOf, DEFAULT_LIMITS, judgeStep, nextRate, type CapacityLimits, type CapacityStep, type SearchPlan, type StepVerdict } from './search.js';

const plan: SearchPlan = { startRate: 50, maxRate: 20_000, factor: 2, tolerance: 0.1, maxSteps: 16 };
const limits: CapacityLimits = { ...DEFAULT_LIMITS, latency: { sample: 'total', stat: 'p99', maxMs: 100 } };

/** Runs the search against a stand-in judge, as the engine does against a real server. */
function search(judge: (rate: number) => StepVerdict, p = plan): CapacityStep[] {
  const steps: CapacityStep[] = [];
  for (let rate = nextRate(steps, p); rate !== null; rate = nextRate(steps, p)) steps.push({ rate, verdict: judge(rate) });
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
        const r = capacityOf(steps);
        expect(steps.length).toBeLessThanOrEqual(plan.maxSteps);
        expect(r.sustainable!).toBeLessThanOrEqual(capacity);
        expect(r.interval[1]!).toBeGreaterThan(capacity);
        expect((r.interval[1]! - r.sustainable!) / r.sustainable!).toBeLessThanOrEqual(plan.tolerance);
        expect(r.limitedBy).toBe('latency');
        expect(steps[r.kneeStep!]!.rate).toBe(r.interval[1]);
      }),
      { numRuns: 300, seed: 4 },
    );
  });

  it('stops at its step bound and at the maximum rate, saying nothing broke', () => {
    expect(search(atCapacity(1e9), { ...plan, maxSteps: 3 })).toHaveLength(3);
    const steps = search(atCapacity(1e9));
    expect(steps.at(-1)!.rate).toBe(plan.maxRate);
    expect(capacityOf(steps)).toMatchObject({ sustainable: plan.maxRate, interval: [plan.maxRate, null], limitedBy: 'max rate', kneeStep: null });
  });

  it('steps down when even the first rate breaks, and gives up a factor^3 below the start', () => {
    expect(capacityOf(search(atCapacity(20))).sustainable).toBeGreaterThan(0);
    const none = search(atCapacity(1));
    expect(none.map((s) => s.rate)).toEqual([50, 25, 12.5, 6.25]);
    expect(capacityOf(none)).toMatchObject({ sustainable: null, limitedBy: 'latency' });
  });

  it('stops at once when the generator could not keep its schedule, and says the generator was the limit', () => {
    const steps = search((rate) => (rate < 400 ? { held: true } : { held: false, limit: 'generator', detail: 'schedule lag p90 9 ms > 5 ms' }));
    expect(steps.map((s) => s.rate)).toEqual([50, 100, 200, 400]);
    const r = capacityOf(steps);
    expect(r.limitedBy).toBe('generator');
    expect(r.detail).toMatch(/load generator could not keep its schedule at 400 req\/s.*at least 200 req\/s, not measured beyond/);
  });

  it("judges a stored step's phase: the generator's lag first, then errors, achieved rate and latency", () => {
    expect(judgeStep(100, phase({}), limits)).toEqual({ held: true });
    expect(judgeStep(100, phase({ lag: flat(9), total: flat(500) }), limits)).toMatchObject({ held: false, limit: 'generator' });
    // lag while arrivals waited for a slot (every connection busy) is the server's: judged by the rest
    expect(judgeStep(100, phase({ lag: flat(9), total: flat(500) }), limits, 12)).toMatchObject({ held: false, limit: 'latency' });
    expect(judgeStep(100, phase({ ok: 90 }), limits)).toMatchObject({ held: false, limit: 'errors', detail: 'errors 10 % > 1 %' });
    expect(judgeStep(100, phase({ throughput: 80 }), limits)).toMatchObject({ held: false, limit: 'throughput', detail: 'achieved 80 req/s of 100 offered' });
    expect(judgeStep(100, phase({ total: flat(150) }), limits)).toMatchObject({ held: false, limit: 'latency', detail: 'total p99 150 ms > 100 ms' });
    expect(judgeStep(100, phase({ processing: null }), { ...limits, latency: { sample: 'processing', stat: 'p50', maxMs: 1 } })).toMatchObject({ held: false, detail: 'no processing times measured' });
  });
});
