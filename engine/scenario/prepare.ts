import type { ValidationResult } from '../../contract/api.js';
import type { Scenario } from '../../contract/scenario.js';
import { ScenarioInvalidError } from './errors.js';
import type { Cell } from './matrix.js';
import { applyOverrides, type OverrideOptions } from './overrides.js';
import { parseScenarioText } from './parse-text.js';
import { planTimeline } from './plan.js';
import { validateScenario } from './validate.js';

// The whole path from a scenario's text to runnable cells:
// parse -> quick (if asked) -> set -> validate -> expand the matrix.

export interface PreparedScenario {
  scenario: Scenario;
  cells: Cell[];
}

/** Overrides, validation and matrix expansion of a parsed input; throws ScenarioInvalidError. */
export function prepareScenario(input: unknown, sourceName: string, opts: OverrideOptions = {}): PreparedScenario {
  let overridden: unknown;
  try {
    overridden = applyOverrides(input, opts);
  } catch (err) {
    if (err instanceof ScenarioInvalidError) throw new ScenarioInvalidError(sourceName, err.issues);
    throw err;
  }
  const validation = validateScenario(overridden);
  if (!validation.ok) throw new ScenarioInvalidError(sourceName, validation.issues);
  return { scenario: validation.scenario, cells: validation.cells };
}

/** Same, from JSON text (the editor, or an opened file). */
export function prepareScenarioText(text: string, sourceName: string, opts: OverrideOptions = {}): PreparedScenario {
  return prepareScenario(parseScenarioText(text, sourceName), sourceName, opts);
}

/** The `scenarios:validate` call: never throws for a bad scenario, answers with its issues. */
export function validateScenarioText(text: string, opts: OverrideOptions = {}): ValidationResult {
  try {
    const { scenario, cells } = prepareScenarioText(text, 'the scenario', opts);
    return { ok: true, scenario, cells: cells.map(({ index, label, params }) => ({ index, label, params })), plan: planTimeline(cells, opts.quick ?? false) };
  } catch (err) {
    if (err instanceof ScenarioInvalidError) return { ok: false, issues: err.issues };
    throw err;
  }
}

