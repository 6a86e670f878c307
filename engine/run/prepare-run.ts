import type { ValidationResult } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import { builtinScenarioNames } from '../scenario/builtin.js';
import { loadScenario, prepareScenarioText, validateScenarioText } from '../scenario/index.js';
import { checkConsent, consentNeeded, setTouchesCommands, type ConsentGiven } from './consent.js';
import type { PreparedRun } from './orchestrator.js';

export interface RunOptions {
  quick: boolean;
  set: Record<string, string>;
  /** what the person agreed to (default: nothing beyond this machine's bundled servers) */
  consent?: ConsentGiven;
}

/**
 * A run's scenario from a built-in name or file path (`name`), or from JSON text (the editor):
 * quick profile and --set applied, validated, matrix expanded, consent checked. Throws with every
 * path and reason, or LS_ERR_NEEDS_CONSENT naming what needs agreeing to.
 */
export function prepareRun(source: { name: string } | { text: string }, opts: RunOptions): PreparedRun {
  const loaded = 'name' in source ? loadScenario(source.name, opts) : null;
  const prepared = loaded ?? prepareScenarioText((source as { text: string }).text, 'the scenario', opts);
  const given = opts.consent ?? { allowRemote: false, allowCommands: false };
  const trusted = loaded?.source === 'builtin' && !setTouchesCommands(opts.set);
  const needed = consentNeeded(prepared.cells, trusted);
  checkConsent(needed, given);
  return { scenario: prepared.scenario, cells: prepared.cells, quick: opts.quick, consent: { ...needed, ...given } };
}

/**
 * A scenario name as sent over the wire (UI): a built-in, never a path on the host.
 * Seam for the scenario library (issue 14): accept a library name here too.
 */
export function checkWireScenarioName(name: string): string {
  // Decided on the list of names alone: the host's file system is not even looked at.
  if (!builtinScenarioNames().includes(name)) {
    throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `no built-in scenario '${name}' (the UI starts built-ins by name, never a file on the host; open a file in the editor instead)`);
  }
  return name;
}

export function validateText(text: string): ValidationResult {
  return validateScenarioText(text);
}
