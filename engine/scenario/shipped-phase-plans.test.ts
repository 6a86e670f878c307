import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedRequests, isOpenLoop, phaseRamp, plannedMs, type PhaseBase } from '../../contract/phase.js';
import { Scenario, type Phase } from '../../contract/scenario.js';
import { storedPhasePlan } from '../../contract/stored-phase.js';
import { rootPath } from '../paths.js';

// Every phase the package ships (built-ins and examples), stored with a run as parsed, read back for
// its plan without the scenario schema (contract/stored-phase.ts, `show`'s diagnosis): the same
// planned requests, length, loop and ramp as the schema's own parse gives.

/** Every phase of the built-in and example scenarios, as stored with a run (parsed: defaults filled). */
function shippedPhases(): Phase[] {
  const files = ['scenarios', 'scenarios/examples'].flatMap((dir) =>
    readdirSync(rootPath(dir)).filter((f) => f.endsWith('.json') && f !== 'scenario.schema.json').map((f) => join(rootPath(dir), f)),
  );
  return files.flatMap((file) => {
    const parsed = Scenario.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.phases : [];
  });
}

const plan = (p: PhaseBase) => ({ expected: expectedRequests(p), ms: plannedMs(p), open: isOpenLoop(p), ramp: phaseRamp(p) });

describe('the shipped phases read back for their plan', () => {
  it('every shipped phase, as stored: the same plan as the scenario schema gives', () => {
    const phases = shippedPhases();
    // each executor kind is among them, so each kind's fields are tried
    expect(new Set(phases.map((p) => p.executor)).size).toBeGreaterThanOrEqual(4);
    for (const p of phases) expect(plan(storedPhasePlan(JSON.parse(JSON.stringify(p)))!)).toEqual(plan(p));
  });
});
