import type { ScenarioIssue } from '../../contract/scenario.js';
import { ScenarioInvalidError } from './errors.js';
import { FORBIDDEN_KEYS, formatPath, isPlainObject, PathError, setPath } from './param-path.js';

// Overrides on the raw scenario input, before validation: the `quick` profile (`--quick`) and
// `--set path=value`. Order: raw input -> quick (if asked) -> set -> validate -> expand the matrix.
// Whether quick is asked of a run is quick-profile.ts's answer (prepare.ts asks it).
//
// Keys are paths (`phases[0].count`, `servers[*].cores`). A key starting with `matrix.` addresses the
// matrix entry whose key is the rest (`matrix.phases[0].rate` -> matrix["phases[0].rate"]), because
// matrix keys are themselves paths with dots and brackets. A value of null removes what the key
// addresses (null is never a valid scenario value, so this is unambiguous): `--set matrix=null`
// runs a scenario without its matrix.

/** Set one override on a scenario input (a copy; the input is not changed). */
export function applyOverride(input: unknown, key: string, value: unknown): unknown {
  if (!isPlainObject(input)) return input; // validation will say what is wrong with it
  if (key.startsWith('matrix.')) {
    const entry = key.slice('matrix.'.length);
    // `matrix['__proto__'] = value` below would set the copy's prototype, and the entry would vanish
    if (FORBIDDEN_KEYS.has(entry)) throw new PathError(`"${key}": "${entry}" is not allowed as a matrix key`);
    const matrix: Record<string, unknown> = isPlainObject(input.matrix) ? { ...input.matrix } : {};
    if (value === null) delete matrix[entry];
    else matrix[entry] = value;
    const copy: Record<string, unknown> = { ...input, matrix };
    if (Object.keys(matrix).length === 0) delete copy.matrix;
    return copy;
  }
  return setPath(input, key, value === null ? undefined : value);
}

/** The input with its `quick` overrides applied and the `quick` key removed (it has been used). */
export function applyQuick(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  const { quick, ...rest } = input;
  if (quick === undefined) return input;
  if (!isPlainObject(quick)) return input; // not an object: the schema check reports it
  const issues: ScenarioIssue[] = [];
  let out: unknown = rest;
  for (const [key, value] of Object.entries(quick)) {
    try {
      out = applyOverride(out, key, value);
    } catch (err) {
      if (!(err instanceof PathError)) throw err;
      issues.push({ path: formatPath(['quick', key]), message: err.message });
    }
  }
  if (issues.length > 0) throw new ScenarioInvalidError('the quick profile', issues);
  return out;
}

/** A --set value: JSON if it parses (5, true, [1,2], {"a":1}, null), else the text as a string. */
export function parseSetValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `path=value` -> [path, value text]; the value may itself contain '='. */
export function parseSetArg(arg: string): [string, string] {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new ScenarioInvalidError('--set', [{ path: `--set ${arg}`, message: 'must be path=value, e.g. phases[0].count=10' }]);
  return [arg.slice(0, eq), arg.slice(eq + 1)];
}

/** Apply --set overrides (values as text, parsed with parseSetValue) in the order given. */
export function applySet(input: unknown, set: Record<string, string> | ReadonlyArray<readonly [string, string]>): unknown {
  const entries = Array.isArray(set) ? set : Object.entries(set);
  const issues: ScenarioIssue[] = [];
  let out = input;
  for (const [key, text] of entries) {
    try {
      out = applyOverride(out, key, parseSetValue(text));
    } catch (err) {
      if (!(err instanceof PathError)) throw err;
      issues.push({ path: `--set ${key}`, message: err.message });
    }
  }
  if (issues.length > 0) throw new ScenarioInvalidError('--set', issues);
  return out;
}

export interface OverrideOptions {
  quick?: boolean;
  set?: Record<string, string> | ReadonlyArray<readonly [string, string]>;
}

/** raw input -> quick (if asked) -> set. */
export function applyOverrides(input: unknown, opts: OverrideOptions = {}): unknown {
  let out = opts.quick ? applyQuick(input) : input;
  if (opts.set) out = applySet(out, opts.set);
  return out;
}
