import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioListItem } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import { rootPath } from '../paths.js';
import { ScenarioInvalidError } from './errors.js';
import { parseScenarioText } from './parse-text.js';
import { describeQuickProfile, prepareScenario } from './prepare.js';
import { serverNames } from './summary.js';

// Built-in scenarios: scenarios/<name>.json in the package (the seeds' experiments), all but the
// published schema file.

export const SCHEMA_FILE_NAME = 'scenario.schema.json';

export function builtinDir(): string {
  return rootPath('scenarios');
}

/** Names of the built-in scenarios (scenarios/*.json but the schema), sorted. */
export function builtinScenarioNames(dir = builtinDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== SCHEMA_FILE_NAME && statSync(join(dir, f)).isFile())
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** Absolute path of a built-in; an unknown name is LS_ERR_SCENARIO_NOT_FOUND listing the known ones. */
export function builtinScenarioPath(name: string, dir = builtinDir()): string {
  const names = builtinScenarioNames(dir);
  if (!names.includes(name)) {
    throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `no built-in scenario '${name}'; built-in scenarios: ${names.length > 0 ? names.join(', ') : '(none)'}`);
  }
  return join(dir, `${name}.json`);
}

/** The text of a built-in, as stored (for the editor). */
export function readBuiltinScenarioText(name: string, dir = builtinDir()): string {
  return readFileSync(builtinScenarioPath(name, dir), 'utf8');
}

/** A listing entry; `error` is set (and the counts are 0) for a built-in that does not validate. */
export type BuiltinScenarioItem = ScenarioListItem & { error?: string };

/**
 * Every built-in scenario. A broken one is listed with its error rather than hiding it or failing
 * the whole listing: the listing is where a user (or a test) notices it.
 */
export function listBuiltinScenarios(dir = builtinDir()): BuiltinScenarioItem[] {
  return builtinScenarioNames(dir).map((name): BuiltinScenarioItem => {
    try {
      const sourceName = `built-in scenario '${name}'`;
      const input = parseScenarioText(readBuiltinScenarioText(name, dir), sourceName);
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
  });
}
