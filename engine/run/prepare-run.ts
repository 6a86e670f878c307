import type { ValidationResult } from '../../contract/api.js';
import { loadScenario, prepareScenarioText, validateScenarioText } from '../scenario/index.js';
import type { PreparedRun } from './orchestrator.js';

export interface RunOptions {
  quick: boolean;
  set: Record<string, string>;
}

/**
 * A run's scenario from a built-in name or file path (`name`), or from JSON text (the editor):
 * quick profile and --set applied, validated, matrix expanded. Throws with every path and reason.
 */
export function prepareRun(source: { name: string } | { text: string }, opts: RunOptions): PreparedRun {
  const prepared = 'name' in source ? loadScenario(source.name, opts) : prepareScenarioText(source.text, 'the scenario', opts);
  return { scenario: prepared.scenario, cells: prepared.cells, quick: opts.quick };
}

export function validateText(text: string): ValidationResult {
  return validateScenarioText(text);
}
