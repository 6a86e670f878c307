import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadscopeError } from '../../contract/errors.js';
import { builtinScenarioNames, readBuiltinScenarioText } from './builtin.js';
import { listBuiltinScenarios } from './builtin-list.js';
import { ScenarioInvalidError } from './errors.js';
import { loadScenario } from './load.js';
import { createScenario } from './test-support/factories.js';
import { validateScenario } from './validate.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-builtins-'));
  writeFileSync(join(dir, 'alpha.json'), JSON.stringify(createScenario({ name: 'alpha', title: 'Alpha' })));
  writeFileSync(join(dir, 'beta.json'), JSON.stringify(createScenario({ name: 'beta', servers: [{ architecture: 'single' }, { architecture: 'cluster', label: 'c2' }], matrix: { 'phases[0].count': [1, 2, 3] } })));
  writeFileSync(join(dir, 'gamma.json'), JSON.stringify({ ...createScenario({ name: 'gamma' }), cuont: 1 }));
  writeFileSync(join(dir, 'scenario.schema.json'), '{}');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('built-in scenarios and scenario files', () => {
  it('lists every scenarios/*.json but the schema; a broken one is listed with its error', () => {
    expect(builtinScenarioNames(dir)).toEqual(['alpha', 'beta', 'gamma']);
    const items = listBuiltinScenarios(dir);
    expect(items[0]).toEqual({ name: 'alpha', title: 'Alpha', description: '', source: 'builtin', servers: ['single'], phases: 1, cells: 1, quickProfile: null });
    expect(items[1]).toMatchObject({ name: 'beta', title: 'beta', servers: ['single', 'c2'], phases: 1, cells: 3 });
    expect(items[2]).toMatchObject({ name: 'gamma', phases: 0, cells: 0, error: '(root): unknown key "cuont"' });
  });

  it('an unknown built-in name lists the known ones', () => {
    expect(() => loadScenario('nope', { builtinDir: dir })).toThrow("no built-in scenario 'nope'; built-in scenarios: alpha, beta, gamma");
    try {
      readBuiltinScenarioText('../alpha', dir);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(LoadscopeError);
      expect((err as LoadscopeError).code).toBe('LS_ERR_SCENARIO_NOT_FOUND');
    }
  });

  it('loads a built-in by name and a file by path, with quick and set', () => {
    const beta = loadScenario('beta', { builtinDir: dir, set: { 'matrix.phases[0].count': '[4, 5]' } });
    expect(beta).toMatchObject({ name: 'beta', source: 'builtin', path: join(dir, 'beta.json') });
    expect(beta.cells.map((c) => c.label)).toEqual(['phases[0].count=4', 'phases[0].count=5']);
    const file = loadScenario(join(dir, 'alpha.json'));
    expect(file).toMatchObject({ name: 'alpha', source: 'file' });
    expect(file.text).toBe(readFileSync(join(dir, 'alpha.json'), 'utf8'));
    expect(() => loadScenario(join(dir, 'missing.json'))).toThrow(/no scenario file/);
  });

  it('an invalid scenario is LS_ERR_SCENARIO_INVALID carrying every issue, one per line in the message', () => {
    try {
      loadScenario('gamma', { builtinDir: dir });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioInvalidError);
      const e = err as ScenarioInvalidError;
      expect(e.code).toBe('LS_ERR_SCENARIO_INVALID');
      expect(e.issues).toEqual([{ path: '(root)', message: 'unknown key "cuont"' }]);
      expect(e.message).toBe("built-in scenario 'gamma' is not a valid scenario (1 problem):\n  (root): unknown key \"cuont\"");
    }
  });

  // The package's own built-ins (the seeds' experiments): each must validate, with and without --quick.
  it.each(builtinScenarioNames())('built-in %s validates, with and without its quick profile', (name) => {
    const text = readBuiltinScenarioText(name);
    const result = validateScenario(JSON.parse(text));
    expect(result.ok ? [] : result.issues).toEqual([]);
    expect(loadScenario(name, { quick: true }).cells.length).toBeGreaterThan(0);
    expect(result.ok && result.scenario.name).toBe(name);
  });
});
