import { describe, expect, it } from 'vitest';
import { readBuiltinScenarioText } from './builtin.js';
import { validateScenarioText } from './prepare.js';
import { createScenario } from './test-support/factories.js';

const planOf = (text: string, quick: boolean) => {
  const result = validateScenarioText(text, { quick });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.plan;
};

describe('the timeline plan', () => {
  it('follows the quick profile: its matrix cells and its sizes, not the full ones', () => {
    const text = readBuiltinScenarioText('seed-003-delays');
    const full = planOf(text, false);
    const quick = planOf(text, true);
    expect(full.cells).toHaveLength(10);
    expect(quick.quick).toBe(true);
    expect(quick.cells.length).toBeLessThan(full.cells.length);
    expect(quick.cells.map((c) => c.servers[0]!.phases[0]!.load)).not.toContain(full.cells[0]!.servers[0]!.phases[0]!.load);
  });

  it("names each matrix cell short (contract/cells.ts), its key=value label kept for hover; '' for a scenario's only cell", () => {
    const text = JSON.stringify(createScenario({
      servers: [{ architecture: 'single', label: 'thread-pool' }],
      phases: [{ executor: 'closed', users: 2, count: 10, requests: [{ path: '/' }] }],
      matrix: { 'servers[*].cores': [1, 2], 'phases[0].count': [10, 20] },
    }));
    const plan = planOf(text, false);
    expect(plan.cells.map((c) => c.name)).toEqual(['cores 1 · 10 req', 'cores 1 · 20 req', 'cores 2 · 10 req', 'cores 2 · 20 req']);
    expect(plan.cells[3]!.label).toBe('servers[*].cores=2, phases[0].count=20');
    expect(planOf(JSON.stringify(createScenario()), false).cells.map((c) => c.name)).toEqual(['']);
  });

  it('places phases by offset or after the previous one, with expected requests and the load that drives them', () => {
    const text = JSON.stringify(createScenario({
      servers: [{ architecture: 'single' }, { architecture: 'cluster', label: 'c2' }],
      phases: [
        { name: 'ramp', executor: 'rate', rate: 100, rampTo: 500, durationMs: 2000, requests: [{ path: '/' }] },
        { name: 'users', executor: 'closed', users: 20, durationMs: 1000, requests: [{ path: '/' }] },
        { name: 'late', executor: 'burst', count: 5, clients: 2, at: 5000, requests: [{ path: '/' }] },
      ],
    }));
    const [cell] = planOf(text, false).cells;
    expect(cell!.servers.map((s) => s.label)).toEqual(['single', 'c2']);
    expect(cell!.servers[1]!.phases).toEqual([
      { index: 0, name: 'ramp', executor: 'rate', startMs: 0, durationMs: 2000, expectedRequests: 600, load: '100 → 500 req/s for 2 s (uniform)', ramp: { unit: 'req/s', points: [{ atMs: 0, value: 100 }, { atMs: 2000, value: 500 }] } },
      { index: 1, name: 'users', executor: 'closed', startMs: 2000, durationMs: 1000, expectedRequests: null, load: '20 users, for 1 s' },
      { index: 2, name: 'late', executor: 'burst', startMs: 5000, durationMs: null, expectedRequests: 10, load: '5 requests at once × 2 clients' },
    ]);
  });

  it('gives a ramp its corners: rate → rampTo, and ramping-users stage by stage', () => {
    const text = JSON.stringify(createScenario({
      phases: [{ executor: 'ramping-users', startUsers: 2, stages: [{ durationMs: 1000, target: 10 }, { durationMs: 500, target: 4 }], requests: [{ path: '/' }] }],
    }));
    const [phase] = planOf(text, false).cells[0]!.servers[0]!.phases;
    expect(phase!.ramp).toEqual({ unit: 'users', points: [{ atMs: 0, value: 2 }, { atMs: 1000, value: 10 }, { atMs: 1500, value: 4 }] });
  });

  it('a phase with stream templates names their protocols once each, in the order written; a phase of plain requests names none', () => {
    const text = JSON.stringify(createScenario({
      servers: [{ architecture: 'single', label: 'one' }],
      phases: [
        { executor: 'closed', users: 2, durationMs: 1000, requests: [{ path: '/ws/echo', stream: { protocol: 'ws' } }, { path: '/events?n=3', stream: { protocol: 'sse' } }, { path: '/ws/echo', name: 'again', stream: { protocol: 'ws' } }, { path: '/' }] },
        { executor: 'closed', users: 2, durationMs: 1000, requests: [{ path: '/' }] },
      ],
    }));
    const phases = planOf(text, false).cells[0]!.servers[0]!.phases;
    expect(phases[0]!.streams).toEqual(['ws', 'sse']);
    expect(phases[1]!.streams).toBeUndefined();
  });
});
