import type { ScenarioIssue } from '../../contract/scenario.js';
import { FORBIDDEN_KEYS, formatPath, isPlainObject } from './param-path.js';

// JSON.parse keeps `__proto__` as an ordinary own key, but a plain assignment of it (zod's record
// parsing of `headers` and `matrix`, an object spread into a new literal, `obj[key] = v`) sets the
// object's prototype instead: the header or matrix entry vanished without a word, or the object
// changed. `constructor` and `prototype` shadow built-ins the same way wherever code looks keys up.
// So none of the three is a key anywhere in a scenario, refused with its path before the schema runs.

/** One issue per reserved key in `input`, at any depth, each with its JSON path. Iterative: depth cannot overflow the stack. */
export function prototypeKeyIssues(input: unknown): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  const seen = new Set<object>();
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: input, path: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    // children pushed last-first, so they pop (and issues appear) in document order
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      for (const key of keys.filter((k) => FORBIDDEN_KEYS.has(k))) {
        issues.push({ path: formatPath([...path, key]), message: `"${key}" is not allowed as a key (JavaScript gives it a meaning of its own: it would be dropped or change the object); rename or remove it` });
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        if (!FORBIDDEN_KEYS.has(keys[i]!)) stack.push({ value: value[keys[i]!], path: [...path, keys[i]!] });
      }
    }
  }
  return issues;
}
