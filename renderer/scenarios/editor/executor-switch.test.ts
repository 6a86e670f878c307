import { describe, expect, it } from 'vitest';
import { switchExecutor } from './executor-switch';
import { stagesSummary } from './form-stages';

// The form's executor switch takes the quick profile along (issue 36): the template's quick
// durationMs left on a ramping-users phase made the profile invalid on a field the phase no longer has.

const template = {
  name: 'mine',
  servers: [{ architecture: 'single' }],
  phases: [{ name: 'steady', executor: 'rate', rate: 50, durationMs: 5000, requests: [{ path: '/fib?n=20' }] }],
  quick: { 'phases[0].durationMs': 1000 },
};

describe('switching a phase’s executor in the form', () => {
  it('to ramping-users: a ramp over the old length, the quick durationMs rewritten as each stage’s at the same fraction', () => {
    const doc = switchExecutor(template, 0, 'ramping-users') as typeof template & { phases: Record<string, unknown>[]; quick: Record<string, unknown> };
    expect(doc.phases[0]).toEqual({ name: 'steady', executor: 'ramping-users', startUsers: 0, stages: [{ target: 10, durationMs: 2500 }, { target: 10, durationMs: 2500 }], requests: [{ path: '/fib?n=20' }] });
    expect(doc.quick).toEqual({ 'phases[0].stages[0].durationMs': 500, 'phases[0].stages[1].durationMs': 500 });
    // and back: the ramp's quick length is a fifth of its own, so a fifth of the rate's
    const back = switchExecutor(doc, 0, 'rate') as { phases: Record<string, unknown>[]; quick: unknown };
    expect(back.phases[0]).toMatchObject({ executor: 'rate', rate: 50, durationMs: 5000 });
    expect(back.quick).toEqual({ 'phases[0].durationMs': 1000 });
  });

  it('a journey (closed, flow, think time) to ramping-users: still a flow with its think time; to rate, which has no users, neither', () => {
    const journey = { ...template, phases: [{ name: 'journey', executor: 'closed', users: 1, count: 18, flow: true, thinkMs: 50, requests: [{ path: '/login', extract: { var: 't', from: 'json', path: 't' } }] }], quick: undefined };
    const ramp = switchExecutor(journey, 0, 'ramping-users') as { phases: Record<string, unknown>[] };
    expect(ramp.phases[0]).toMatchObject({ executor: 'ramping-users', flow: true, thinkMs: 50 });
    const rate = switchExecutor(ramp, 0, 'rate') as { phases: Record<string, unknown>[] };
    expect(rate.phases[0]).not.toHaveProperty('flow');
    expect(rate.phases[0]).not.toHaveProperty('thinkMs');
  });

  it('to a counted executor: the quick duration becomes the same fraction of the count; back to timed, of the duration', () => {
    const burst = switchExecutor(template, 0, 'burst') as { phases: Record<string, unknown>[]; quick: unknown };
    expect(burst.phases[0]).toMatchObject({ executor: 'burst', count: 20 });
    expect(burst.quick).toEqual({ 'phases[0].count': 4 });
    const closed = switchExecutor(burst, 0, 'closed') as { phases: Record<string, unknown>[]; quick: unknown };
    expect(closed.phases[0]).toMatchObject({ executor: 'closed', users: 10, durationMs: 2000 });
    expect(closed.quick).toEqual({ 'phases[0].durationMs': 400 });
  });

  it('drops entries on fields the new executor has not, keeps other phases’ and shared fields’ entries, and the profile goes when none is left', () => {
    const doc = {
      ...template,
      phases: [{ executor: 'closed', users: 8, durationMs: 4000, requests: [{ path: '/' }] }, template.phases[0]],
      quick: { 'phases[0].users': 2, 'phases[0].timeoutMs': 500, 'phases[1].durationMs': 1000, 'servers[*].cores': 1 },
    };
    expect((switchExecutor(doc, 0, 'rate') as { quick: unknown }).quick).toEqual({ 'phases[0].timeoutMs': 500, 'phases[1].durationMs': 1000, 'servers[*].cores': 1 });
    const alone = { ...doc, quick: { 'phases[0].users': 2 } };
    expect(switchExecutor(alone, 0, 'rate')).not.toHaveProperty('quick');
  });
});

describe('the stages rows read back', () => {
  it('says the ramp the rows make', () => {
    expect(stagesSummary(0, [{ target: 20, durationMs: 10_000 }, { target: 20, durationMs: 20_000 }, { target: 0, durationMs: 5000 }])).toBe('users 0 → 20 over 10 s, held 20 s, → 0 over 5 s');
    expect(stagesSummary(undefined, [{ target: 'x', durationMs: 1 }])).toBe('');
  });
});
