import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import { rootPath } from '../paths.js';

// Built-in scenarios: scenarios/<name>.json in the package (the seeds' experiments), all but the
// published schema file. Names, paths and texts only (no schema): builtin-list.ts lists them.

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
