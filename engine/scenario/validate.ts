import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { capacityIssues } from './capacity-check.js';
import { ScenarioInvalidError } from './errors.js';
import { tryExpandMatrix, type Cell } from './matrix.js';
import { applyQuick } from './overrides.js';
import { isPlainObject } from './param-path.js';
import { bodyIncludesIssues, requestSizeIssues } from './request-bounds.js';
import { pointAtQuickProfile, quickProfileOf } from './quick-profile.js';
import { checkSchema } from './schema-check.js';
import { thresholdRefIssues } from './threshold-refs.js';

/** On success, the matrix's cells too: expanding checks every cell through the schema, so it is done once. */
export type ScenarioValidation = { ok: true; scenario: Scenario; cells: Cell[] } | { ok: false; issues: ScenarioIssue[] };

/**
 * Every problem of a scenario input, each with its path and a reason, or the scenario with its
 * defaults filled. Beyond the schema it checks that every matrix value and combination gives a valid
 * scenario whose requests stay within their bounds (request-bounds.ts), and that the quick profile
 * (when there is one) does too, so a file that validates also runs, with or without --quick.
 */
export function validateScenario(input: unknown): ScenarioValidation {
  const checked = checkSchema(input);
  if (!checked.ok) return checked;
  const matrix = tryExpandMatrix(checked.scenario);
  if (!matrix.ok) return matrix;
  const capacity = new Map(matrix.cells.flatMap((c) => capacityIssues(c.scenario)).map((i) => [`${i.path} ${i.message}`, i]));
  // what a request builds and keeps (request-bounds.ts); data values are counted once the files are read
  const bounds = new Map(matrix.cells.flatMap((c) => [...requestSizeIssues(c.scenario, null), ...bodyIncludesIssues(c.scenario)]).map((i) => [`${i.path} ${i.message}`, i]));
  const refIssues = [...thresholdRefIssues(checked.scenario, matrix.cells), ...capacity.values(), ...bounds.values()];
  if (refIssues.length > 0) return { ok: false, issues: refIssues };
  if (isPlainObject(input) && input.quick !== undefined) {
    const quickIssues = checkQuickProfile(input);
    if (quickIssues.length > 0) return { ok: false, issues: quickIssues };
  }
  return { ok: true, scenario: checked.scenario, cells: matrix.cells };
}

function checkQuickProfile(input: unknown): ScenarioIssue[] {
  let quick: unknown;
  try {
    quick = applyQuick(input);
  } catch (err) {
    if (err instanceof ScenarioInvalidError) return err.issues;
    throw err;
  }
  const checked = checkSchema(quick);
  let issues = checked.ok ? [] : checked.issues;
  if (checked.ok) {
    const matrix = tryExpandMatrix(checked.scenario);
    if (!matrix.ok) issues = matrix.issues;
  }
  return pointAtQuickProfile(quickProfileOf(input) ?? {}, issues);
}
