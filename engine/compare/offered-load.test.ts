import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../contract/results.js';
import { phaseResult } from '../../db/test-support/factories.js';
import { prepareScenario } from '../scenario/prepare.js';
import { offeredLoad } from './offered-load.js';

// The load a stored phase offered at each moment, read from the scenario as run: a rate ramp in
// req/s (all client groups), ramping-users in users, a matrix cell's own rampTo; a constant load
// is none (compared as a whole phase).

function run(input: object, startedMs = 500): Pick<RunSummary, 'scenario' | 'cells' | 'targets'> {
  const { scenario, cells } = prepareScenario(input, 'the scenario');
  const targets = cells.map((c, i) => ({
    id: 10 + i, cellIndex: c.index, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed' as const, reason: null, startedAt: null, durationMs: 1000,
    phases: scenario.phases.map((_, k) => ({ ...phaseResult(k, { name: `p${k}` }), startedMs })), peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 0, rawSampled: false,
  }));
  return { scenario, cells: cells.map(({ index, label, params }) => ({ index, label, params })), targets };
}

const base = { name: 'ramps', servers: [{ architecture: 'single' }] };
const request = [{ path: '/sleep?ms=1' }];

describe('offered load of a stored phase', () => {
  it('a rate ramp: linear from rate to rampTo over the phase, times all client groups, from the phase start', () => {
    const load = offeredLoad(run({ ...base, phases: [{ executor: 'rate', rate: 10, rampTo: 50, durationMs: 4000, clients: 2, requests: request }] }), 10, 0)!;
    expect(load.unit).toBe('req/s');
    expect([0, 500, 2500, 4500, 9000].map((t) => load.at(t))).toEqual([20, 20, 60, 100, 100]);
  });

  it('a matrix cell that sets rampTo ramps to its own value', () => {
    const r = run({ ...base, phases: [{ executor: 'rate', rate: 10, rampTo: 20, durationMs: 1000, requests: request }], matrix: { 'phases[0].rampTo': [20, 90] } });
    expect(offeredLoad(r, 10, 0)!.at(1500)).toBe(20);
    expect(offeredLoad(r, 11, 0)!.at(1500)).toBe(90);
  });

  it('ramping-users follows its stages in users; a constant rate and a closed phase have none', () => {
    const r = run({ ...base, phases: [
      { executor: 'ramping-users', startUsers: 0, stages: [{ durationMs: 1000, target: 10 }, { durationMs: 1000, target: 2 }], requests: request },
      { executor: 'rate', rate: 10, durationMs: 1000, requests: request },
      { executor: 'closed', users: 4, durationMs: 1000, requests: request },
    ] }, 0);
    const users = offeredLoad(r, 10, 0)!;
    expect(users.unit).toBe('users');
    expect([0, 500, 1000, 1500, 2000].map((t) => users.at(t))).toEqual([0, 5, 10, 6, 2]);
    expect(offeredLoad(r, 10, 1)).toBeNull();
    expect(offeredLoad(r, 10, 2)).toBeNull();
  });
});
