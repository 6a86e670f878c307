import type { ValidationResult } from '../../contract/api.js';
import type { Scenario } from '../../contract/scenario.js';
import { ScenarioInvalidError } from './errors.js';
import type { Cell } from './matrix.js';
import { applyOverrides, type OverrideOptions } from './overrides.js';
import { parseScenarioText } from './parse-text.js';
import { planTimeline } from './plan.js';
import { pointAtQuickProfile, quickApplies, quickEffect, quickProfileOf } from './quick-profile.js';
import { validateScenario } from './validate.js';

// The whole path from a scenario's text to runnable cells:
// parse -> quick (if asked and there is a profile) -> set -> validate -> expand the matrix.

export interface PreparedScenario {
  scenario: Scenario;
  cells: Cell[];
  /** the quick profile was applied: what the run is stored and labelled as (quick-profile.ts) */
  quick: boolean;
}

/** Overrides, validation and matrix expansion of a parsed input; throws ScenarioInvalidError. */
export function prepareScenario(input: unknown, sourceName: string, opts: OverrideOptions = {}): PreparedScenario {
  const quick = quickApplies(input, opts.quick ?? false);
  const overridden = overrides(input, sourceName, { ...opts, quick });
  const validation = validateScenario(overridden);
  if (validation.ok) return { scenario: validation.scenario, cells: validation.cells, quick };
  if (quick) {
    // valid without the profile: the profile broke it, so its issues go on the profile's entries
    const full = validateScenario(overrides(input, sourceName, { ...opts, quick: false }));
    throw new ScenarioInvalidError(sourceName, full.ok ? pointAtQuickProfile(quickProfileOf(input) ?? {}, validation.issues) : full.issues);
  }
  throw new ScenarioInvalidError(sourceName, validation.issues);
}

function overrides(input: unknown, sourceName: string, opts: OverrideOptions): unknown {
  try {
    return applyOverrides(input, opts);
  } catch (err) {
    if (err instanceof ScenarioInvalidError) throw new ScenarioInvalidError(sourceName, err.issues);
    throw err;
  }
}

/** Same, from JSON text (the editor, or an opened file). */
export function prepareScenarioText(text: string, sourceName: string, opts: OverrideOptions = {}): PreparedScenario {
  return prepareScenario(parseScenarioText(text, sourceName), sourceName, opts);
}

/**
 * What a scenario's quick profile shortens (`phases 10 s -> 2 s, 3 servers -> 1`), or null when it
 * has none (or one that changes nothing); throws ScenarioInvalidError as prepareScenario does.
 */
export function describeQuickProfile(input: unknown, sourceName: string, opts: OverrideOptions = {}): string | null {
  const profile = quickProfileOf(input);
  if (profile === null || !quickApplies(input, true)) return null;
  const full = prepareScenario(input, sourceName, { ...opts, quick: false });
  const quick = prepareScenario(input, sourceName, { ...opts, quick: true });
  return quickEffect(full.cells, quick.cells, profile);
}

/** The `scenarios:validate` call: never throws for a bad scenario, answers with its issues. */
export function validateScenarioText(text: string, opts: OverrideOptions = {}): ValidationResult {
  try {
    const input = parseScenarioText(text, 'the scenario');
    const { scenario, cells, quick } = prepareScenario(input, 'the scenario', opts);
    const quickProfile = describeQuickProfile(input, 'the scenario', opts);
    return { ok: true, scenario, cells: cells.map(({ index, label, params }) => ({ index, label, params })), plan: planTimeline(cells, quick), quickProfile };
  } catch (err) {
    if (err instanceof ScenarioInvalidError) return { ok: false, issues: err.issues };
    throw err;
  }
}
