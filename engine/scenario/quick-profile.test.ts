import { describe, expect, it } from 'vitest';
import { prepareScenario, validateScenarioText } from './prepare.js';
import { pointAtQuickProfile, quickApplies } from './quick-profile.js';
import { createScenario } from './test-support/factories.js';

// The quick decision's one owner (quick-profile.ts): quick only where there is a profile to apply,
// what the profile shortens in words, and its problems put on its own entries.

const RAMP = { executor: 'ramping-users', startUsers: 0, stages: [{ target: 4, durationMs: 2000 }], requests: [{ path: '/fib?n=10' }] };

describe('quick only where the scenario has a quick profile', () => {
  it('asked for a scenario without a profile (an empty one, one that changes nothing): not quick, the scenario as written', () => {
    expect(quickApplies(createScenario(), true)).toBe(false);
    expect(quickApplies(createScenario({ quick: {} }), true)).toBe(false);
    // a profile that changes nothing (the factory's count is 3): an identical load is not quick
    expect(quickApplies(createScenario({ quick: { 'phases[0].count': 3 } }), true)).toBe(false);
    expect(validateScenarioText(JSON.stringify(createScenario({ quick: { 'phases[0].count': 3 } })), { quick: true })).toMatchObject({ ok: true, quickProfile: null, plan: { quick: false } });
    expect(quickApplies(createScenario({ quick: { 'phases[0].count': 1 } }), false)).toBe(false);
    expect(quickApplies(createScenario({ quick: { 'phases[0].count': 1 } }), true)).toBe(true);
    const none = prepareScenario(createScenario(), 'test', { quick: true });
    expect(none.quick).toBe(false);
    const some = prepareScenario(createScenario({ quick: { 'phases[0].count': 1 } }), 'test', { quick: true });
    expect(some.quick).toBe(true);
    expect(some.scenario.phases[0]).toMatchObject({ count: 1 });
  });

  it('scenarios:validate asked quick for a scenario without a profile: a full plan, no profile to describe', () => {
    const answer = validateScenarioText(JSON.stringify(createScenario()), { quick: true });
    expect(answer).toMatchObject({ ok: true, quickProfile: null, plan: { quick: false } });
  });
});

describe('what the quick profile shortens, in words', () => {
  it('phase time, servers and requests as they change, whatever was asked', () => {
    const scenario = createScenario({
      servers: [{ architecture: 'single' }, { architecture: 'cluster' }, { architecture: 'thread-pool' }],
      phases: [{ executor: 'rate', rate: 50, durationMs: 10_000, requests: [{ path: '/fib?n=10' }] }],
      quick: { 'phases[0].durationMs': 2000, servers: [{ architecture: 'single' }] },
    });
    for (const quick of [true, false]) {
      expect(validateScenarioText(JSON.stringify(scenario), { quick })).toMatchObject({ ok: true, quickProfile: 'phases 10 s -> 2 s, 500 requests -> 100, 3 servers -> 1', plan: { quick } });
    }
  });

  it('users (or in-flight slots) as concurrency; a burst’s once, as its requests', () => {
    const closed = createScenario({ phases: [{ executor: 'closed', users: 512, count: 10, requests: [{ path: '/' }] }], quick: { 'phases[0].users': 64 } });
    expect(validateScenarioText(JSON.stringify(closed))).toMatchObject({ ok: true, quickProfile: 'concurrency 512 -> 64' });
    const burst = createScenario({ phases: [{ executor: 'burst', count: 6, requests: [{ path: '/' }] }], quick: { 'phases[0].count': 2 } });
    expect(validateScenarioText(JSON.stringify(burst))).toMatchObject({ ok: true, quickProfile: '6 requests -> 2' });
  });

  it('a profile that changes none of those sizes is named by its own entries', () => {
    const scenario = createScenario({ phases: [{ executor: 'closed', users: 8, durationMs: 1000, thinkMs: 50, requests: [{ path: '/' }] }], quick: { 'phases[0].thinkMs': 0 } });
    expect(validateScenarioText(JSON.stringify(scenario))).toMatchObject({ ok: true, quickProfile: 'phases[0].thinkMs = 0' });
  });
});

describe('a quick profile that breaks the scenario: the issue is on its entry', () => {
  // a template's timed phase switched to ramping-users with its quick durationMs left behind
  const broken = createScenario({ phases: [RAMP] as never, quick: { 'phases[0].durationMs': 1000 } });

  it('checked without quick (the editor, validate): quick["phases[0].durationMs"], naming what broke', () => {
    const answer = validateScenarioText(JSON.stringify(broken));
    expect(answer).toEqual({ ok: false, issues: [{ path: 'quick["phases[0].durationMs"]', message: 'with the quick profile applied, phases[0]: unknown key "durationMs"' }] });
  });

  it('checked with quick on (the Run view, run --quick): the same entry, not phases[0]', () => {
    const answer = validateScenarioText(JSON.stringify(broken), { quick: true });
    expect(answer).toEqual({ ok: false, issues: [{ path: 'quick["phases[0].durationMs"]', message: 'with the quick profile applied, phases[0]: unknown key "durationMs"' }] });
  });

  it('a problem of the scenario itself stays where it is, quick on or off', () => {
    const bad = createScenario({ phases: [{ ...RAMP, stages: [] }] as never, quick: { 'phases[0].startUsers': 1 } });
    for (const quick of [true, false]) {
      const answer = validateScenarioText(JSON.stringify(bad), { quick });
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.issues.map((i) => i.path)).toEqual(['phases[0].stages']);
    }
  });

  it('an issue inside an entry (a wildcard path), or one no entry touches, goes to the closest entry or to quick', () => {
    const issues = [
      { path: 'servers[1].cores', message: 'must be at most 8' },
      { path: 'thresholds[0]', message: 'names no phase' },
    ];
    expect(pointAtQuickProfile({ 'servers[*].cores': 64, 'phases[0].count': 1 }, issues).map((i) => i.path)).toEqual(['quick["servers[*].cores"]', 'quick']);
  });
});
