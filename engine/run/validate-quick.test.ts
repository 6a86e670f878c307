import { describe, expect, it } from 'vitest';
import { ValidationResult } from '../../contract/api.js';
import type { Scenario } from '../../contract/scenario.js';
import { useTempStore } from '../../db/test-support/temp-store.js';
import { packageRoot } from '../paths.js';
import { builtinScenarioNames, readBuiltinScenarioText } from '../scenario/builtin.js';
import { prepareRun, validateText } from './prepare-run.js';

// The Run view outlines a scenario from `scenarios:validate`'s answer, so with quick on that answer
// must hold the quick profile's sizes exactly as `runs:start` will run them, and survive the client's
// parse of the typed contract (a JSON round trip, as over the wire).

const temp = useTempStore('file');

const overWire = (r: ValidationResult) => ValidationResult.parse(JSON.parse(JSON.stringify(r)));

/** A run of a built-in fills in where its commands run (the package root); the outline has no use for it. */
const withoutPackageCwd = (s: Scenario): Scenario => ({
  ...s,
  servers: s.servers.map((server) => {
    if (server.architecture !== 'external' || server.cwd !== packageRoot()) return server;
    const { cwd: _cwd, ...rest } = server;
    return rest;
  }),
});

describe('scenarios:validate answers with the sizes runs:start will run', () => {
  it.each(builtinScenarioNames())('%s, quick and full', (name) => {
    const text = readBuiltinScenarioText(name);
    for (const quick of [true, false]) {
      const answer = overWire(validateText(text, quick));
      if (!answer.ok) throw new Error(`${name} does not validate: ${JSON.stringify(answer.issues)}`);
      const run = prepareRun(temp.store, { name }, { quick, set: {} });
      expect(answer.scenario).toEqual(withoutPackageCwd(run.scenario));
      expect(answer.cells.map((c) => c.label)).toEqual(run.cells.map((c) => c.label));
    }
  });

  it('with quick on the answer holds the quick profile\'s counts, users, durations and matrix cells', () => {
    const text = readBuiltinScenarioText('seed-003-threads');
    const full = overWire(validateText(text, false));
    const quick = overWire(validateText(text, true));
    if (!full.ok || !quick.ok) throw new Error('seed-003-threads does not validate');
    const [fp, qp] = [full.scenario.phases[0], quick.scenario.phases[0]];
    expect(fp?.executor === 'closed' && qp?.executor === 'closed').toBe(true);
    if (fp?.executor !== 'closed' || qp?.executor !== 'closed') return;
    expect(qp.users).toBe(64);
    expect(fp.users).not.toBe(64);
    expect(quick.scenario.matrix?.['phases[0].count']).toEqual([10, 128]);
    expect(full.scenario.matrix?.['phases[0].count']).toEqual([10, 50, 200, 500, 1000]);
    expect(quick.cells.length).toBeLessThan(full.cells.length);
    expect(quick.scenario.quick).toBeUndefined();

    const rates = overWire(validateText(readBuiltinScenarioText('seed-001-rates'), true));
    if (!rates.ok) throw new Error('seed-001-rates does not validate');
    expect(rates.scenario.phases.map((p) => ('durationMs' in p ? p.durationMs : undefined))).toEqual([300, 1500]);
    expect(rates.scenario.matrix?.['phases[1].rate']).toEqual([200, 800]);
  });
});
