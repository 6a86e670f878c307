import { describe, expect, it } from 'vitest';
import { ScenarioInvalidError } from './errors.js';
import { expandMatrix } from './matrix.js';
import { applyOverrides, applyQuick, applySet, parseSetArg, parseSetValue } from './overrides.js';
import { prepareScenario } from './prepare.js';
import { createBurstPhase, createScenario } from './test-support/factories.js';

const withQuick = () =>
  createScenario({
    phases: [createBurstPhase({ count: 100 }), { executor: 'rate', rate: 500, durationMs: 10_000, requests: [{ path: '/' }] }],
    matrix: { 'phases[1].rate': [500, 1000, 2000], 'servers[*].cores': [1, 2] },
    quick: { 'phases[0].count': 5, 'phases[1].durationMs': 1000, 'matrix.phases[1].rate': [100, 200] },
  });

describe('quick and --set', () => {
  it('applyQuick sets each path, replaces a matrix entry by its key, and drops quick', () => {
    const out = applyQuick(withQuick()) as ReturnType<typeof withQuick>;
    expect(out.quick).toBeUndefined();
    expect(out.phases[0]).toMatchObject({ count: 5 });
    expect(out.phases[1]).toMatchObject({ durationMs: 1000, rate: 500 });
    expect(out.matrix).toEqual({ 'phases[1].rate': [100, 200], 'servers[*].cores': [1, 2] });
  });

  it('a quick key matrix.X may add a matrix entry, and null removes one', () => {
    const added = applyQuick(createScenario({ quick: { 'matrix.servers[*].cores': [1] } })) as { matrix?: unknown };
    expect(added.matrix).toEqual({ 'servers[*].cores': [1] });
    const removed = applyQuick(createScenario({ matrix: { 'phases[0].count': [1, 2] }, quick: { 'matrix.phases[0].count': null } })) as { matrix?: unknown };
    expect(removed.matrix).toBeUndefined();
  });

  it('--set values are JSON when they parse, else strings', () => {
    expect(parseSetValue('5')).toBe(5);
    expect(parseSetValue('[1,2]')).toEqual([1, 2]);
    expect(parseSetValue('true')).toBe(true);
    expect(parseSetValue('least-busy')).toBe('least-busy');
    expect(parseSetArg('a.b=x=y')).toEqual(['a.b', 'x=y']);
    expect(() => parseSetArg('novalue')).toThrow(ScenarioInvalidError);
  });

  it('order: quick first, then --set, so --set wins over quick', () => {
    const out = applyOverrides(withQuick(), { quick: true, set: { 'phases[0].count': '7', 'matrix.phases[1].rate': '[300]' } }) as ReturnType<typeof withQuick>;
    expect(out.phases[0]).toMatchObject({ count: 7 });
    expect(out.matrix?.['phases[1].rate']).toEqual([300]);
    // Without quick, --set applies to the original.
    const plain = applyOverrides(withQuick(), { set: { 'phases[1].durationMs': '2000' } }) as ReturnType<typeof withQuick>;
    expect(plain.phases[0]).toMatchObject({ count: 100 });
    expect(plain.phases[1]).toMatchObject({ durationMs: 2000 });
    expect(plain.quick).toBeDefined();
  });

  it('then validate, then expand: the quick matrix gives 2 x 2 cells with the quick sizes', () => {
    const { cells } = prepareScenario(withQuick(), 'test', { quick: true });
    expect(cells).toHaveLength(4);
    expect(cells.map((c) => c.label)).toEqual([
      'phases[1].rate=100, servers[*].cores=1',
      'phases[1].rate=100, servers[*].cores=2',
      'phases[1].rate=200, servers[*].cores=1',
      'phases[1].rate=200, servers[*].cores=2',
    ]);
    expect(cells[0]!.scenario.phases[0]).toMatchObject({ count: 5 });
    expect(expandMatrix(prepareScenario(withQuick(), 'test').scenario)).toHaveLength(6);
  });

  it('a --set that makes the scenario invalid is reported like any issue; a bad path names --set', () => {
    expect(() => prepareScenario(createScenario(), 'x.json', { set: { 'phases[0].count': '-1' } })).toThrow(
      /x\.json is not a valid scenario \(1 problem\):\n {2}phases\[0\]\.count: must be >= 1, got -1/,
    );
    try {
      applySet(createScenario(), { 'phases[2].count': '1' });
      expect.unreachable();
    } catch (err) {
      expect((err as ScenarioInvalidError).issues).toEqual([{ path: '--set phases[2].count', message: 'phases[2] does not exist (phases has 1 item)' }]);
    }
  });

  it('--set matrix=null runs without the matrix', () => {
    const { cells } = prepareScenario(withQuick(), 'test', { set: { matrix: 'null' } });
    expect(cells).toHaveLength(1);
  });
});
