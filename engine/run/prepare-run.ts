import type { ParsedCallRequest, ValidationResult } from '../../contract/api.js';
import type { RunSource, Store } from '../../db/store.js';
import { lookupScenario } from '../library/lookup.js';
import { runScenarioSource, sourceOfNamed } from '../library/run-source.js';
import { prepareScenarioText, validateScenarioText } from '../scenario/index.js';
import type { PreparedRun } from './orchestrator.js';

export interface RunOptions {
  quick: boolean;
  set: Record<string, string>;
}

type StartSource = ParsedCallRequest<'runs:start'>['scenario'];

/**
 * A run's scenario from a built-in or library name, from JSON text (the editor, a file the CLI read),
 * or from a stored run (run again: its own text, quick and --set, plus any given now): quick profile
 * and --set applied, validated, matrix expanded. Throws with every path and reason.
 */
export function prepareRun(store: Store, from: StartSource, opts: RunOptions): PreparedRun {
  let source: RunSource;
  let sourceName: string;
  let quick = opts.quick;
  if ('name' in from) {
    const named = lookupScenario(store, from.name);
    source = sourceOfNamed(named, opts.set);
    sourceName = `${named.source === 'builtin' ? 'built-in' : 'library'} scenario '${named.name}'`;
  } else if ('runId' in from) {
    const stored = runScenarioSource(store, from.runId);
    const set = { ...stored.set, ...opts.set };
    const versionId = stored.origin.kind === 'library' ? store.getRunSource(from.runId)?.libraryVersionId ?? null : null;
    source = { text: stored.text, set, libraryVersionId: versionId };
    sourceName = `the scenario of run ${from.runId}`;
    quick ||= stored.quick;
  } else {
    source = { text: from.text, set: opts.set, libraryVersionId: null };
    sourceName = from.origin ?? 'the scenario';
  }
  const prepared = prepareScenarioText(source.text, sourceName, { quick, set: source.set });
  return { scenario: prepared.scenario, cells: prepared.cells, quick, source };
}

export function validateText(text: string, quick: boolean): ValidationResult {
  return validateScenarioText(text, { quick });
}
