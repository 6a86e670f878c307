import { describe, expect, it } from 'vitest';
import { expectedRequests, isOpenLoop, phaseRamp, plannedMs, type PhaseBase } from './phase.js';
import { Phase } from './scenario.js';
import { storedPhasePlan } from './stored-phase.js';

// A stored run's scenario is data from disk (older versions, k6 imports, a file edited by hand): the
// phase read back for its plan without the scenario schema (`show`'s diagnosis) gives the same plan
// as the schema for each kind (engine/scenario/shipped-phase-plans.test.ts: for every phase the
// package ships), and for any other value either a plan whose fields the facts can read or null
// (plan not known), never a throw or a NaN planned count.

const plan = (p: PhaseBase) => ({ expected: expectedRequests(p), ms: plannedMs(p), open: isOpenLoop(p), ramp: phaseRamp(p) });
const requests = [{ path: '/' }];

describe('a stored phase read for its plan', () => {
  it('each kind as written, its defaulted fields left out (a stored run of a test, an old file): the same plan as the schema fills in', () => {
    const inputs = [
      { executor: 'burst', count: 5, requests },
      { executor: 'closed', users: 2, count: 50, requests },
      { executor: 'rate', rate: 100, rampTo: 500, durationMs: 2000, requests },
      { executor: 'ramping-users', stages: [{ durationMs: 1000, target: 4 }], requests },
      { executor: 'sequential', count: 7, clients: undefined, requests },
    ];
    for (const input of inputs) expect(plan(storedPhasePlan(input)!), input.executor).toEqual(plan(Phase.parse(input)));
  });

  it('each kind written by the schema, ramps and optional fields included: the same plan', () => {
    const inputs = [
      { executor: 'burst', count: 5, requests },
      { executor: 'sequential', count: 7, clients: 3, requests },
      { executor: 'closed', users: 2, count: 50, requests },
      { executor: 'closed', users: 2, durationMs: 1500, thinkMs: 5, requests },
      { executor: 'rate', rate: 100, rampTo: 500, durationMs: 2000, clients: 2, requests },
      { executor: 'rate', rate: 0.5, durationMs: 3000, requests },
      { executor: 'ramping-users', stages: [{ durationMs: 1000, target: 4 }, { durationMs: 500, target: 0 }], requests },
    ];
    for (const input of inputs) {
      const p = Phase.parse(input);
      expect(plan(storedPhasePlan(JSON.parse(JSON.stringify(p)))!), input.executor).toEqual(plan(p));
    }
  });

  const closed = Phase.parse({ executor: 'closed', users: 2, count: 50, requests }) as Record<string, unknown>;
  const rate = Phase.parse({ executor: 'rate', rate: 10, durationMs: 1000, requests }) as Record<string, unknown>;
  const ramp = Phase.parse({ executor: 'ramping-users', stages: [{ durationMs: 1000, target: 4 }], requests }) as Record<string, unknown>;
  const odd: Record<string, unknown> = {
    'null': null,
    'a string': 'closed',
    'an array': [closed],
    'an unknown executor': { ...closed, executor: 'soak' },
    'an executor named after an Object prototype key': { ...closed, executor: 'toString' },
    'a count that is a string': { ...closed, count: '50' },
    'a count of NaN': { ...closed, count: Number.NaN },
    'a count of Infinity': { ...closed, count: Number.POSITIVE_INFINITY },
    'a fractional count': { ...closed, count: 2.5 },
    'zero clients': { ...closed, clients: 0 },
    'a closed phase with neither count nor durationMs': { ...closed, count: undefined },
    'a negative rate': { ...rate, rate: -1 },
    'a rate ramp to a string': { ...rate, rampTo: 'up' },
    'stages that are not an array': { ...ramp, stages: { 0: { durationMs: 1, target: 1 } } },
    'no stages': { ...ramp, stages: [] },
    'a stage that is null': { ...ramp, stages: [null] },
    'a stage without a target': { ...ramp, stages: [{ durationMs: 1000 }] },
    'a name that is a number': { ...closed, name: 7 },
  };

  it.each(Object.entries(odd))('%s: null (the plan is not known), no throw', (_name, raw) => {
    expect(storedPhasePlan(raw)).toBeNull();
  });

  it('fields the plan does not read (a template changed since, a key added): the plan is still read', () => {
    const p = storedPhasePlan({ ...closed, requests: [{ path: 1 }], addedLater: true });
    expect(p === null ? null : expectedRequests(p)).toBe(50);
  });
});
