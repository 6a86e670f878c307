import { describe, expect, it } from 'vitest';
import { arrivalsEndMs, defaultPhaseName, describePhaseLoad, expectedRequests, isOpenLoop, phaseDeadlineMs, phaseName, phaseRamp, phaseSlots, plannedMs, progressPlan } from './phase.js';
import { Phase } from './scenario.js';

// The answers contract/phase.ts picked where its consumers used to disagree.

const requests = [{ path: '/' }];
const ramp = Phase.parse({ executor: 'ramping-users', startUsers: 0, stages: [{ durationMs: 1000, target: 4 }, { durationMs: 500, target: 1 }], requests });
const rate = Phase.parse({ executor: 'rate', rate: 100, rampTo: 500, durationMs: 2000, clients: 2, requests });
const closedTimed = Phase.parse({ executor: 'closed', users: 1, durationMs: 1500, requests });

describe('the phase module', () => {
  it('expects null requests where the count is not known ahead, never Infinity', () => {
    expect([expectedRequests(ramp), expectedRequests(closedTimed), expectedRequests(rate)]).toEqual([null, null, 1200]);
  });

  it('plans length, arrivals end, progress and slots from the fields', () => {
    expect([plannedMs(ramp), plannedMs(rate), plannedMs(closedTimed)]).toEqual([1500, 2000, 1500]);
    expect([arrivalsEndMs(rate), arrivalsEndMs(ramp), isOpenLoop(rate), isOpenLoop(closedTimed)]).toEqual([2000, null, true, false]);
    expect([progressPlan(ramp), progressPlan(rate)]).toEqual([{ kind: 'time', durationMs: 1500 }, { kind: 'time', durationMs: 2000 }]);
    expect(phaseSlots(ramp)).toBe(4);
    expect(phaseRamp(ramp)).toEqual({ unit: 'users', points: [{ atMs: 0, value: 0 }, { atMs: 1000, value: 4 }, { atMs: 1500, value: 1 }] });
  });

  it('ends every phase that stops sending at a time by that time + timeoutMs; one bounded by its count alone by maxDurationMs; never after maxDurationMs', () => {
    const timeout = { timeoutMs: 1000 };
    const counted = Phase.parse({ executor: 'closed', users: 2, count: 50, requests, ...timeout });
    const countedAndTimed = Phase.parse({ executor: 'closed', users: 2, count: 50, durationMs: 3000, requests, ...timeout });
    const burst = Phase.parse({ executor: 'burst', count: 5, requests, maxDurationMs: 9000 });
    const sequential = Phase.parse({ executor: 'sequential', count: 5, requests });
    const capped = Phase.parse({ executor: 'rate', rate: 10, durationMs: 5000, maxDurationMs: 5500, requests, ...timeout });
    expect([closedTimed, ramp, rate].map(phaseDeadlineMs)).toEqual([1500 + 60_000, 1500 + 60_000, 2000 + 60_000]);
    expect([counted, countedAndTimed, burst, sequential, capped].map(phaseDeadlineMs)).toEqual([600_000, 4000, 9000, 600_000, 5500]);
  });

  it('words a phase one way, client groups and singulars included', () => {
    expect(describePhaseLoad(rate)).toBe('100 → 500 req/s for 2 s (uniform) × 2 clients');
    expect(describePhaseLoad(closedTimed)).toBe('1 user, for 1.5 s');
    expect(describePhaseLoad(ramp)).toBe('users 0 → 4 over 1 s → 1 over 500 ms');
  });

  it('names a phase by its own name, else its position', () => {
    expect([phaseName({ name: 'warm' }, 0), phaseName({}, 2), defaultPhaseName(0)]).toEqual(['warm', 'phase 3', 'phase 1']);
  });
});
