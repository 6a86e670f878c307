import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import { rootPath } from '../paths.js';

// The package's example scenarios (scenarios/examples/<name>.json), reachable by name from any
// folder: `loadscope run --example journey`. They are files, not built-ins: a run of one is stored
// as a run of that file (its folder is where its data files are found), so the k6 and seed checks
// that walk every built-in do not take them in. A name is looked up in the listing, never joined
// into a path as given, so `--example ../x` names nothing.

export function exampleDir(): string {
  return rootPath('scenarios/examples');
}

/** The examples' names (file names without .json), sorted. */
export function exampleNames(dir = exampleDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile())
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** The absolute path of an example; an unknown name is LS_ERR_SCENARIO_NOT_FOUND listing the known ones. */
export function examplePath(name: string, dir = exampleDir()): string {
  const names = exampleNames(dir);
  if (!names.includes(name)) {
    throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `no example '${name}'; examples: ${names.length > 0 ? names.join(', ') : '(none)'}`);
  }
  return join(dir, `${name}.json`);
}
