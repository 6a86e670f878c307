import type { ScenarioListItem } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import type { Store } from '../../db/store.js';
import { builtinScenarioNames, listBuiltinScenarios, readBuiltinScenarioText } from '../scenario/builtin.js';
import { ScenarioInvalidError } from '../scenario/errors.js';
import { parseScenarioText } from '../scenario/parse-text.js';
import { describeQuickProfile, prepareScenario } from '../scenario/prepare.js';
import { serverNames } from '../scenario/summary.js';

// The one place a scenario NAME is resolved: a built-in first (they are read-only and a library
// scenario may not take a built-in's name), then the user's library. Never a file path: only the
// CLI reads files, and it sends their text. Hosts that take a name from outside (runs:start {name})
// go through here, so nothing else is reachable by name.

export type NamedScenario =
  | { source: 'builtin'; name: string; text: string }
  | { source: 'library'; name: string; text: string; id: number; version: number; versionId: number };

/** The scenario called `name`, or undefined. */
export function findNamedScenario(store: Store, name: string): NamedScenario | undefined {
  if (builtinScenarioNames().includes(name)) return { source: 'builtin', name, text: readBuiltinScenarioText(name) };
  const entry = store.library.find(name);
  if (!entry) return undefined;
  return { source: 'library', name, text: entry.text, id: entry.id, version: entry.version, versionId: entry.versionId };
}

/** Same; an unknown name is LS_ERR_SCENARIO_NOT_FOUND listing what there is. */
export function lookupScenario(store: Store, name: string): NamedScenario {
  const found = findNamedScenario(store, name);
  if (found) return found;
  const library = store.library.list().map((e) => e.name);
  throw new LoadscopeError(
    'LS_ERR_SCENARIO_NOT_FOUND',
    `no scenario '${name}'; built-in: ${builtinScenarioNames().join(', ') || '(none)'}; in your library: ${library.join(', ') || '(none)'}`,
  );
}

/** Built-ins then the library, each with what the pickers show; a broken one is listed with its error. */
export function listAllScenarios(store: Store): ScenarioListItem[] {
  const library = store.library.list().map((e): ScenarioListItem => {
    const base = { name: e.name, source: 'library' as const, id: e.id, version: e.version, updatedAt: e.updatedAt };
    try {
      const sourceName = `library scenario '${e.name}'`;
      const input = parseScenarioText(e.text, sourceName);
      const { scenario, cells } = prepareScenario(input, sourceName);
      const quickProfile = describeQuickProfile(input, sourceName);
      return { ...base, title: scenario.title ?? e.name, description: scenario.description ?? '', servers: serverNames(cells), phases: scenario.phases.length, cells: cells.length, quickProfile };
    } catch (err) {
      const error = err instanceof ScenarioInvalidError ? err.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : String(err);
      return { ...base, title: e.name, description: `invalid: ${error}`, servers: [], phases: 0, cells: 0, error };
    }
  });
  return [...listBuiltinScenarios(), ...library];
}
