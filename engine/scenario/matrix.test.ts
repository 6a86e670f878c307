import { describe, expect, it } from 'vitest';
import type { Scenario, ScenarioInput } from '../../contract/scenario.js';
import { ScenarioInvalidError } from './errors.js';
import { expandMatrix } from './matrix.js';
import { createBurstPhase, createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

function valid(input: ScenarioInput): Scenario {
  const result = validateScenario(input);
  if (!result.ok) throw new Error(result.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return result.scenario;
}

const twoServers: ScenarioInput['servers'] = [{ architecture: 'single' }, { architecture: 'cluster' }];

describe('expandMatrix', () => {
  it('without a matrix: one cell, empty params, no matrix or quick left in it', () => {
    const cells = expandMatrix(valid(createScenario({ quick: { 'phases[0].count': 1 } })));
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({ index: 0, label: '', params: {} });
    expect(cells[0]!.scenario.matrix).toBeUndefined();
    expect(cells[0]!.scenario.quick).toBeUndefined();
  });

  it('is the cartesian product, first entry slowest, each cell with its values set', () => {
    const scenario = valid(
      createScenario({
        servers: twoServers,
        phases: [createBurstPhase(), createBurstPhase({ count: 10 })],
        matrix: { 'phases[1].count': [10, 20, 30], 'servers[*].cores': [1, 2] },
      }),
    );
    const cells = expandMatrix(scenario);
    expect(cells).toHaveLength(6);
    expect(cells.map((c) => c.label)).toEqual([
      'phases[1].count=10, servers[*].cores=1',
      'phases[1].count=10, servers[*].cores=2',
      'phases[1].count=20, servers[*].cores=1',
      'phases[1].count=20, servers[*].cores=2',
      'phases[1].count=30, servers[*].cores=1',
      'phases[1].count=30, servers[*].cores=2',
    ]);
    expect(cells.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    const cell = cells[3]!;
    expect(cell.params).toEqual({ 'phases[1].count': 20, 'servers[*].cores': 2 });
    expect(cell.scenario.phases[1]).toMatchObject({ executor: 'burst', count: 20 });
    expect(cell.scenario.servers.map((s) => s.cores)).toEqual([2, 2]);
    // The base scenario is not changed by expansion.
    expect(scenario.phases[1]).toMatchObject({ count: 10 });
    expect(scenario.servers[0]!.cores).toBeUndefined();
  });

  it('a server option and a rate', () => {
    const cells = expandMatrix(
      valid(
        createScenario({
          servers: [{ architecture: 'cluster' }],
          phases: [{ executor: 'rate', rate: 50, durationMs: 1000, requests: [{ path: '/' }] }],
          matrix: { 'servers[0].options.workers': [1, 4], 'phases[0].rate': [100, 200] },
        }),
      ),
    );
    expect(cells.map((c) => [c.scenario.servers[0]!.architecture === 'cluster' && c.scenario.servers[0]!.options.workers, c.scenario.phases[0]!.executor === 'rate' && c.scenario.phases[0]!.rate])).toEqual([
      [1, 100],
      [1, 200],
      [4, 100],
      [4, 200],
    ]);
  });

  it('`servers` itself: a list of server lists, each filled with defaults', () => {
    const cells = expandMatrix(
      valid(createScenario({ matrix: { servers: [[{ architecture: 'single' }], [{ architecture: 'cluster', options: { workers: 4 } }, { architecture: 'offload', label: 'off' }]] } })),
    );
    expect(cells).toHaveLength(2);
    expect(cells.map((c) => c.label)).toEqual(['servers=single', 'servers=cluster+off']);
    expect(cells[1]!.scenario.servers).toEqual([
      { architecture: 'cluster', options: { workers: 4 } },
      { architecture: 'offload', label: 'off', options: { workers: 2, httpWorkers: 0, dispatch: 'round-robin', workIn: 'workers' } },
    ]);
  });

  it('entries apply in the order written: servers, then servers[*].cores on the new list', () => {
    const cells = expandMatrix(
      valid(createScenario({ matrix: { servers: [twoServers], 'servers[*].cores': [1, 2] } })),
    );
    expect(cells.map((c) => c.scenario.servers.map((s) => `${s.architecture}:${s.cores}`))).toEqual([
      ['single:1', 'cluster:1'],
      ['single:2', 'cluster:2'],
    ]);
  });

  it('a value that makes the scenario invalid names the entry, the value and the reason', () => {
    const result = validateScenario(createScenario({ matrix: { 'phases[0].count': [10, -5] } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([{ path: 'matrix["phases[0].count"][1]', message: 'makes phases[0].count invalid: must be >= 1, got -5' }]);
    const scenario = valid(createScenario());
    expect(() => expandMatrix({ ...scenario, matrix: { 'servers[0].options.workers': [2.5] } })).toThrow(ScenarioInvalidError);
    try {
      expandMatrix({ ...scenario, matrix: { 'phases[4].count': [1] } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioInvalidError);
      expect((err as ScenarioInvalidError).issues).toEqual([{ path: 'matrix["phases[4].count"][0]', message: 'phases[4] does not exist (phases has 1 item)' }]);
    }
  });

  it('a list of server lists is checked like servers', () => {
    const result = validateScenario(createScenario({ matrix: { servers: [[{ architecture: 'cluster', options: { workers: 2.5 } }]] } }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => `${i.path}: ${i.message}`)).toEqual(['matrix.servers[0]: makes servers[0].options.workers invalid: must be an integer, got 2.5']);
  });
});
