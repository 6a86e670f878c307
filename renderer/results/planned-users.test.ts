import { describe, expect, it } from 'vitest';
import { inFlightOption } from '../../contract/report/chart-options';
import { DARK } from '../../contract/report/palette';
import type { LiveWindow } from '../../contract/results';
import { groupsOf } from '../charts/groups';
import { emptyTarget, type RunSeries } from '../charts/run-data';
import { activeUsersOf, plannedUsersOf } from './planned-users';

// A ramping-users phase's users over time in the in-flight chart (issue 36: a ramp showed none): from
// its stages, placed at the phase's reported start, up to the latest window; none for other phases.

const scenario = {
  name: 'ramp',
  servers: [{ architecture: 'single' }],
  phases: [
    { executor: 'burst', count: 5, requests: [{ path: '/' }] },
    { executor: 'ramping-users', startUsers: 0, stages: [{ target: 4, durationMs: 1000 }, { target: 4, durationMs: 1000 }], clients: 2, requests: [{ path: '/' }] },
  ],
};

const window = (tMs: number, phaseIndex: number): LiveWindow => ({ runId: 1, targetId: 7, tMs, phaseIndex, count: 1, throughput: 4, errors: {}, inFlight: 3, total: null, wait: null, processing: null, queued: 0 });

function series(lastMs: number): RunSeries {
  const t = emptyTarget(7, 'single');
  t.cellIndex = 0;
  t.phases = [{ phaseIndex: 0, name: 'phase 1', tMs: 0 }, { phaseIndex: 1, name: 'phase 2', tMs: 500 }];
  for (let ms = 250; ms <= lastMs; ms += 250) t.windows.push(window(ms, ms <= 500 ? 0 : 1));
  return { runId: 1, targets: [t] };
}

describe('plannedUsersOf', () => {
  it('the ramp’s corners from the phase’s start, both client groups, up to the latest window', () => {
    const all = plannedUsersOf(series(2500), scenario, [{ index: 0, label: '', params: {} }]).get('1:7');
    expect(all).toEqual([[0.5, 0], [1.5, 8], [2.5, 8], [2.5, null]]);
    // live, half-way up the first stage: nothing drawn ahead of the run
    expect(plannedUsersOf(series(1000), scenario, []).get('1:7')).toEqual([[0.5, 0], [1, 4], [1, null]]);
  });

  it('none for a run without a ramp of users, or where the matrix changes the ramp’s phase', () => {
    expect(plannedUsersOf(series(2500), { ...scenario, phases: [scenario.phases[0], scenario.phases[0]] }, []).size).toBe(0);
    expect(plannedUsersOf(series(2500), scenario, [{ index: 0, label: 'x', params: { 'phases[1].stages': [] } }]).size).toBe(0);
  });

  it('is drawn in the in-flight chart as its own series', () => {
    const s = series(2500);
    const option = inFlightOption({ groups: groupsOf(s), plannedUsers: plannedUsersOf(s, scenario, []) }, DARK);
    const names = (option.series as { name?: string }[]).map((x) => x.name);
    expect(names).toEqual(['in flight', 'users (planned)']);
  });
});

describe('activeUsersOf', () => {
  it('a ramp phase’s windows: users in flight plus those waiting to go on; none drawn over other phases', () => {
    const s = series(1500);
    s.targets[0]!.windows.forEach((w, i) => (w.queued = i));
    // windows at 0.75 .. 1.5 s are the ramp's (phase 2): inFlight 3 + queued 2..5
    expect(activeUsersOf(s, scenario).get('1:7')).toEqual([[0.75, 5], [1, 6], [1.25, 7], [1.5, 8]]);
  });

  it('none for a run without a ramp of users, and drawn as its own series beside the plan', () => {
    expect(activeUsersOf(series(2500), { ...scenario, phases: [scenario.phases[0], scenario.phases[0]] }).size).toBe(0);
    const s = series(2500);
    const option = inFlightOption({ groups: groupsOf(s), plannedUsers: plannedUsersOf(s, scenario, []), activeUsers: activeUsersOf(s, scenario) }, DARK);
    expect((option.series as { name?: string }[]).map((x) => x.name)).toEqual(['in flight', 'users (planned)', 'users (active)']);
  });
});
