import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import { builtinScenarioPath } from './builtin.js';
import { MAX_SCENARIO_BYTES } from './limits.js';
import type { OverrideOptions } from './overrides.js';
import { prepareScenarioText, type PreparedScenario } from './prepare.js';

// Where a scenario reference leads: a file path (ends with .json, or exists) or a built-in name.

export interface LoadedScenario extends PreparedScenario {
  /** the built-in name, or the file name without .json */
  name: string;
  source: 'builtin' | 'file';
  /** absolute path of the file read */
  path: string;
  /** the file's text, as read */
  text: string;
}

/** The absolute path when `ref` means a file (ends with .json, or exists), else undefined (a name). */
export function resolveScenarioFile(ref: string): string | undefined {
  if (!ref.endsWith('.json') && !existsSync(ref)) return undefined;
  const path = resolve(ref);
  if (!existsSync(path)) throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `no scenario file '${ref}' (${path} does not exist)`);
  const stat = statSync(path);
  if (stat.isDirectory()) throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `'${ref}' is a directory, not a scenario file (give the .json file inside it)`);
  if (!stat.isFile()) throw new LoadscopeError('LS_ERR_SCENARIO_NOT_FOUND', `'${ref}' is not a regular file`);
  // Not read at all when too big: reading a huge file is the memory problem the limit prevents.
  if (stat.size > MAX_SCENARIO_BYTES) {
    throw new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${path} is ${stat.size} bytes; a scenario may have at most ${MAX_SCENARIO_BYTES}`);
  }
  return path;
}

/** A file path (ends with .json, or exists) or a built-in name -> where to read it from. */
export function resolveScenarioRef(ref: string, dir?: string): { name: string; source: 'builtin' | 'file'; path: string } {
  const path = resolveScenarioFile(ref);
  if (path !== undefined) return { name: basename(path).replace(/\.json$/, ''), source: 'file', path };
  return { name: ref, source: 'builtin', path: builtinScenarioPath(ref, dir) };
}

export interface LoadOptions extends OverrideOptions {
  /** where built-ins live (tests); default: the package's scenarios/ */
  builtinDir?: string;
}

/** Read, override (quick, set), validate and expand a scenario file or built-in. */
export function loadScenario(ref: string, opts: LoadOptions = {}): LoadedScenario {
  const where = resolveScenarioRef(ref, opts.builtinDir);
  const text = readFileSync(where.path, 'utf8');
  const sourceName = where.source === 'builtin' ? `built-in scenario '${where.name}'` : where.path;
  return { ...where, text, ...prepareScenarioText(text, sourceName, opts) };
}

