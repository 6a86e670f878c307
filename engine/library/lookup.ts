import { LoadscopeError } from '../../contract/errors.js';
import type { Store } from '../../db/store.js';
import { builtinScenarioNames, readBuiltinScenarioText } from '../scenario/builtin.js';

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
