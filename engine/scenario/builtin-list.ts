import type { ScenarioListItem } from '../../contract/api.js';
import { builtinDir, builtinScenarioNames, readBuiltinScenarioText } from './builtin.js';
import { ScenarioInvalidError } from './errors.js';
import { parseScenarioText } from './parse-text.js';
import { describeQuickProfile, prepareScenario } from './prepare.js';
import { serverNames } from './summary.js';

// What the scenario pickers and `loadscope scenarios` show of a built-in, from its full parse: the
// one owner of a built-in's listing entry. builtin-index.ts keeps these entries from the build, so
// a listing parses only a built-in whose text changed since.

/** A listing entry; `error` is set (and the counts are 0) for a built-in that does not validate. */
export type BuiltinScenarioItem = ScenarioListItem & { error?: string };

/** The listing entry of the built-in `name` whose file holds `text`. */
export function builtinItem(name: string, text: string): BuiltinScenarioItem {
  try {
    const sourceName = `built-in scenario '${name}'`;
    const input = parseScenarioText(text, sourceName);
    const loaded = prepareScenario(input, sourceName);
    if (loaded.scenario.name !== name) {
      // Runs are stored under the scenario's name and found again by the file's: they must agree.
      throw new Error(`its name is '${loaded.scenario.name}' but its file is ${name}.json; make them the same`);
    }
    return {
      name,
      title: loaded.scenario.title ?? name,
      description: loaded.scenario.description ?? '',
      source: 'builtin',
      servers: serverNames(loaded.cells),
      phases: loaded.scenario.phases.length,
      cells: loaded.cells.length,
      quickProfile: describeQuickProfile(input, sourceName),
    };
  } catch (err) {
    const error = err instanceof ScenarioInvalidError ? err.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : err instanceof Error ? err.message : String(err);
    return { name, title: name, description: `invalid: ${error}`, source: 'builtin', servers: [], phases: 0, cells: 0, error };
  }
}

/**
 * Every built-in scenario. A broken one is listed with its error rather than hiding it or failing
 * the whole listing: the listing is where a user (or a test) notices it.
 */
export function listBuiltinScenarios(dir = builtinDir()): BuiltinScenarioItem[] {
  return builtinScenarioNames(dir).map((name) => builtinItem(name, readBuiltinScenarioText(name, dir)));
}
