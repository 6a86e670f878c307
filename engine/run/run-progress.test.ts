import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../contract/api.js';
import { Phase, Scenario, type PhaseInput } from '../../contract/scenario.js';
import { RunProgress, targetPlanOf } from './run-progress.js';

// Progress is computed once, in the engine: from requests done of planned (count phases) and load
// time (timed phases). For every executor it rises while the phase runs (not only when it ends),
// never goes down, stays below 100 % until the run completes, and a cancelled run ends below 100 %.

const requests = [{ path: '/ok' }];
const phases: Record<string, PhaseInput> = {
  burst: { executor: 'burst', count: 40, requests },
  sequential: { executor: 'sequential', count: 40, requests },
  'closed (count)': { executor: 'closed', users: 4, count: 40, requests },
  'closed (duration)': { executor: 'closed', users: 4, durationMs: 4000, requests },
  rate: { executor: 'rate', rate: 10, durationMs: 4000, requests },
  'ramping-users': { executor: 'ramping-users', stages: [{ durationMs: 2000, target: 4 }, { durationMs: 2000, target: 0 }], requests },
};

function simulate(input: PhaseInput, servers: number, endAs: 'completed' | 'cancelled', cancelAtStep = Infinity) {
  let clock = 0;
  const phase = Phase.parse(input);
  const progress = new RunProgress(Array.from({ length: servers }, () => [phase]), () => clock);
  const seen: number[] = [];
  const remaining: (number | null)[] = [];
  const emit = (e: EngineEvent) => progress.observe(e);
  const window = (count: number): EngineEvent => ({
    event: 'run:window',
    payload: { runId: 1, targetId: 1, tMs: clock, phaseIndex: 0, count, throughput: 0, errors: {}, inFlight: 0, queued: 0, total: null, wait: null, processing: null },
  });
  let step = 0;
  outer: for (let s = 0; s < servers; s++) {
    progress.targetStarted();
    clock += 3000; // server start-up: not load time
    emit({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: 0, name: 'p', state: 'started', tMs: 0 } });
    for (let w = 0; w < 16; w++) {
      clock += 250;
      emit(window(2));
      const snap = progress.snapshot();
      seen.push(snap.fraction);
      remaining.push(snap.remainingMs);
      if (++step >= cancelAtStep) break outer;
    }
    emit({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: 0, name: 'p', state: 'ended', tMs: 4000 } });
    progress.targetEnded();
    seen.push(progress.snapshot().fraction);
  }
  progress.finish(endAs);
  return { seen, remaining, last: progress.snapshot() };
}

describe('run progress', () => {
  for (const [name, input] of Object.entries(phases)) {
    it(`${name}: rises while the phase runs, never goes down, 100 % only when completed`, () => {
      const { seen, last } = simulate(input, 2, 'completed');
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
      expect(seen[3]!, 'moving during the first phase').toBeGreaterThan(0);
      expect(Math.max(...seen)).toBeLessThan(1);
      expect(last.fraction).toBe(1);
    });

    it(`${name}: a cancelled run ends below 100 %`, () => {
      const { seen, last } = simulate(input, 2, 'cancelled', 20);
      expect(last.fraction).toBeLessThan(1);
      expect(last.fraction).toBeGreaterThanOrEqual(seen.at(-1)!);
    });
  }

  it('a count-based matrix run gives a remaining time once under way, not "unknown" throughout', () => {
    const { remaining } = simulate(phases.sequential!, 4, 'completed');
    expect(remaining.slice(4).every((r) => r !== null && r > 0)).toBe(true);
  });
});

describe('run progress of a capacity search', () => {
  it('its steps count into one span timed by the search bound: not 100 % after the first step, rising through later steps', () => {
    const scenario = Scenario.parse({
      name: 'search',
      servers: [{ architecture: 'single' }],
      phases: [{ executor: 'rate', rate: 10, durationMs: 1000, timeoutMs: 1000, requests }],
      capacity: { maxSteps: 5, maxDurationMs: 60_000, latency: { maxMs: 100 } },
    });
    expect(targetPlanOf(scenario)).toEqual({ searchMs: 10_000 });
    let clock = 0;
    const progress = new RunProgress([targetPlanOf(scenario)], () => clock);
    progress.targetStarted();
    const seen: number[] = [];
    for (let step = 0; step < 4; step++) {
      progress.observe({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: step, name: `${step}`, state: 'started', tMs: clock } });
      clock += 1000;
      progress.observe({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: step, name: `${step}`, state: 'ended', tMs: clock } });
      seen.push(progress.snapshot().fraction);
    }
    expect(seen[0]).toBeCloseTo(0.1, 5);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    expect(seen.at(-1)!).toBeLessThan(1);
    progress.targetEnded();
    progress.finish('completed');
    expect(progress.snapshot().fraction).toBe(1);
  });
});

describe('run progress of a server run that does not complete', () => {
  it('a cancelled or failed server run counts what it reached, not a whole run (a lone server cancelled at a quarter ended at 99 %)', () => {
    let clock = 0;
    const phase = Phase.parse(phases.rate!);
    const progress = new RunProgress([[phase], [phase]], () => clock);
    progress.targetStarted();
    progress.observe({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: 0, name: 'p', state: 'started', tMs: 0 } });
    clock += 1000; // a quarter of the 4 s phase; the cancel ends the phase early
    progress.observe({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: 0, name: 'p', state: 'ended', tMs: 1000 } });
    expect(progress.snapshot().fraction).toBeCloseTo(0.125, 5);
    clock += 500; // winding down is not load
    progress.targetEnded('cancelled');
    progress.finish('cancelled');
    expect(progress.snapshot().fraction).toBeCloseTo(0.125, 5);

    // the server never started: nothing reached; the next one completes
    const failed = new RunProgress([[phase], [phase]], () => clock);
    failed.targetStarted();
    failed.targetEnded('failed');
    expect(failed.snapshot().fraction).toBe(0);
    failed.targetStarted();
    failed.targetEnded('completed');
    failed.finish('failed');
    expect(failed.snapshot().fraction).toBeCloseTo(0.5, 5);
  });
});

describe('remaining time of a count-based matrix', () => {
  it('extrapolates by requests, so cells of different sizes do not make it jump (16 then 128 requests a cell)', () => {
    const cell = (count: number) => [Phase.parse({ executor: 'sequential', count, requests })];
    const sizes = [16, 16, 128, 128];
    let clock = 0;
    const progress = new RunProgress(sizes.map(cell), () => clock);
    const total = sizes.reduce((a, b) => a + b, 0);
    let done = 0;
    const estimates: { said: number; truth: number }[] = [];
    for (const count of sizes) {
      progress.targetStarted();
      clock += 3000; // server start-up: not load time
      progress.observe({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: 0, name: 'p', state: 'started', tMs: 0 } });
      // a steady 8 requests per 250 ms window: 31.25 ms of load per request
      for (let left = count; left > 0; ) {
        const n = Math.min(8, left);
        left -= n;
        done += n;
        clock += 250;
        progress.observe({ event: 'run:window', payload: { runId: 1, targetId: 1, tMs: clock, phaseIndex: 0, count: n, throughput: 0, errors: {}, inFlight: 0, queued: 0, total: null, wait: null, processing: null } });
        const said = progress.snapshot().remainingMs;
        if (said !== null && done < total) estimates.push({ said, truth: (total - done) * 31.25 });
      }
      progress.observe({ event: 'run:phase', payload: { runId: 1, targetId: 1, phaseIndex: 0, name: 'p', state: 'ended', tMs: clock } });
      progress.targetEnded('completed');
    }
    expect(estimates.length).toBeGreaterThan(20);
    // within a window's worth of the truth at a steady rate, wherever the run is
    for (const e of estimates) expect(Math.abs(e.said - e.truth)).toBeLessThan(300);
  });
});
