import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDriver } from './driver.js';
import { rate } from './test-support/phases.js';
import { startTestServer, type TestServer } from './test-support/server.js';
import type { PhaseEndEvent } from './types.js';

// An open plan (a capacity search): the listener answers the next phase as each one ends; the
// appended phases run on the same t0, one after another, and the run ends on null or a cancel.

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('driver: phases appended as they end', () => {
  it('runs each appended phase after the one before, on one timeline, and ends on null', async () => {
    const asked: PhaseEndEvent[] = [];
    const rates = [40, 80];
    const result = await runDriver(
      { baseUrl: server.url, phases: [{ ...rate(20, 300), name: 'a' }] },
      {
        nextPhase: (e) => {
          asked.push(e);
          const next = rates.shift();
          return next === undefined ? null : { ...rate(next, 300), name: `${next}` };
        },
      },
    );
    expect(result.cancelled).toBe(false);
    expect(asked.map((e) => e.phaseIndex)).toEqual([0, 1, 2]);
    const phases = result.phases.map((p) => p.result);
    expect(phases.map((p) => [p.index, p.name])).toEqual([[0, 'a'], [1, '40'], [2, '80']]);
    for (let i = 1; i < phases.length; i++) expect(phases[i]!.startedMs).toBeGreaterThanOrEqual(phases[i - 1]!.startedMs + phases[i - 1]!.durationMs);
    // a rate phase of 300 ms sends its rate's share of requests: 6, 12, 24
    expect(phases.map((p) => p.count)).toEqual([6, 12, 24]);
    expect(result.durationMs).toBeGreaterThanOrEqual(phases[2]!.startedMs + phases[2]!.durationMs - 1);
  });

  it('a cancel while the next phase is being chosen ends the run with what ran', async () => {
    const abort = new AbortController();
    const result = await runDriver(
      { baseUrl: server.url, phases: [rate(20, 200)] },
      {
        nextPhase: () => {
          abort.abort();
          return rate(20, 60_000);
        },
      },
      abort.signal,
    );
    expect(result.cancelled).toBe(true);
    expect(result.phases).toHaveLength(1);
  });

  it('starts no appended phase that would end after the time bound at its real start, however late the choice came', async () => {
    // the choice of the next phase takes 100 ms (a busy machine): chosen at ~300 ms, a 300 ms phase
    // would end by 600 ms, inside a 650 ms bound; started no earlier than ~400 ms it would not
    const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    const plan = (appendUntilMs: number) => ({ baseUrl: server.url, phases: [{ ...rate(20, 300), name: 'a' }], appendUntilMs });
    const late = (asked: number[]) => (e: PhaseEndEvent) => {
      asked.push(e.phaseIndex);
      if (e.phaseIndex > 0) return null;
      sleep(100);
      return { ...rate(20, 300), name: 'b' };
    };
    const askedLate: number[] = [];
    const bounded = await runDriver(plan(650), { nextPhase: late(askedLate) });
    expect(bounded.cancelled).toBe(false);
    expect(bounded.phases.map((p) => p.result.name)).toEqual(['a']);
    expect(askedLate).toEqual([0]);
    // the same choice with room to spare runs
    const roomy = await runDriver(plan(60_000), { nextPhase: late([]) });
    expect(roomy.phases.map((p) => p.result.name)).toEqual(['a', 'b']);
  });
});
