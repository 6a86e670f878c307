import type { core } from 'zod';
import type { ScenarioIssue } from '../../contract/scenario.js';
import { knownKeysAt } from './json-schema.js';
import { formatPath, isPlainObject } from './param-path.js';

// zod 4 issues -> `path: reason` lines a person understands, e.g.
//   phases[1].rate: must be > 0, got -5
//   phases[2].executor: must be one of burst, closed, rate, sequential, ramping-users, got "bust"
// zod 4 does not carry the received value in its issues, so it is looked up in the input by path.

type Issue = core.$ZodIssue;
type Path = PropertyKey[];

/** zod's own English messages; anything else was written in the schema and is kept as it is. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized key)/;

export function zodIssuesToScenarioIssues(issues: readonly Issue[], input: unknown): ScenarioIssue[] {
  const out: ScenarioIssue[] = [];
  for (const issue of issues) collect(issue, [], input, out);
  const seen = new Set<string>();
  return out.filter((i) => {
    const key = `${i.path}\u0000${i.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

function collect(issue: Issue, base: Path, input: unknown, out: ScenarioIssue[]): void {
  const path = [...base, ...issue.path];
  const at = formatPath(path) || '(root)';
  if (issue.code === 'unrecognized_keys') {
    for (const key of issue.keys) out.push({ path: at, message: `unknown key ${JSON.stringify(key)}${didYouMean(key, input, path)}` });
    return;
  }
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    collectUnion(issue.errors, path, input, out);
    return;
  }
  if (issue.code === 'invalid_key') {
    // The path ends at the key; the value under test is the key itself.
    const key = path[path.length - 1];
    for (const inner of issue.issues) out.push({ path: at, message: `invalid key: ${reason(inner, key, true)}` });
    return;
  }
  const value = lookup(input, path);
  out.push({ path: at, message: reason(issue, value.found ? value.value : undefined, value.found) });
}

/**
 * A union failed: pick the branch the author meant. Branches that failed on their discriminator
 * (`architecture: expected "external"`) were not meant; if every branch failed on the same
 * discriminator, say which values it may take; otherwise report the closest remaining branch.
 */
function collectUnion(branches: readonly Issue[][], path: Path, input: unknown, out: ScenarioIssue[]): void {
  const discriminatorIssue = (b: Issue[]) => b.find(isDiscriminatorIssue);
  const meant = branches.filter((b) => !discriminatorIssue(b));
  if (meant.length === 0) {
    const keys = new Set(branches.map((b) => String(discriminatorIssue(b)!.path[0])));
    if (keys.size === 1) {
      const key = [...keys][0]!;
      const options: unknown[] = [];
      for (const b of branches) for (const v of allowedValues(discriminatorIssue(b)!)) if (!options.includes(v)) options.push(v);
      const value = lookup(input, [...path, key]);
      out.push({ path: formatPath([...path, key]), message: oneOf(options, value.found ? value.value : undefined, value.found) });
      return;
    }
  }
  const candidates = meant.length > 0 ? meant : branches;
  // Every branch failed on the value itself (e.g. "server" | a param path): say all it may be.
  if (candidates.length > 1 && candidates.every((b) => b.length === 1 && b[0]!.path.length === 0 && b[0]!.code !== 'invalid_union')) {
    const value = lookup(input, path);
    const reasons = [...new Set(candidates.map((b) => stripGot(reason(b[0]!, value.value, value.found))))];
    out.push({ path: formatPath(path) || '(root)', message: `${reasons.join('; or ')}${got(value.value, value.found)}` });
    return;
  }
  const best = candidates.reduce((a, b) => (b.length < a.length ? b : a));
  for (const issue of best) collect(issue, path, input, out);
}

function isDiscriminatorIssue(issue: Issue): boolean {
  if (issue.path.length !== 1) return false;
  if (issue.code === 'invalid_value') return true;
  return issue.code === 'invalid_union' && issue.errors.length === 0 && issue.discriminator !== undefined;
}

function allowedValues(issue: Issue): readonly unknown[] {
  if (issue.code === 'invalid_value') return issue.values;
  if (issue.code === 'invalid_union' && 'options' in issue && issue.options) return issue.options;
  return [];
}

/** The reason for one issue, given the value found at its path (`found` false: nothing there). */
function reason(issue: Issue, value: unknown, found: boolean): string {
  const custom = !ZOD_DEFAULT_MESSAGE.test(issue.message);
  switch (issue.code) {
    case 'invalid_type': {
      if (!found || value === undefined) return `required: must be ${typeNoun(issue.expected)}`;
      return `must be ${typeNoun(issue.expected)}${got(value, found)}`;
    }
    case 'too_small':
    case 'too_big': {
      if (custom) return issue.message + got(value, found);
      return sizeReason(issue, value, found);
    }
    case 'invalid_format': {
      if (custom) return issue.message + got(value, found);
      if ('prefix' in issue && typeof issue.prefix === 'string') return `must start with ${JSON.stringify(issue.prefix)}${got(value, found)}`;
      if ('suffix' in issue && typeof issue.suffix === 'string') return `must end with ${JSON.stringify(issue.suffix)}${got(value, found)}`;
      if ('includes' in issue && typeof issue.includes === 'string') return `must include ${JSON.stringify(issue.includes)}${got(value, found)}`;
      if (issue.format === 'regex' && issue.pattern) return `must match ${issue.pattern}${got(value, found)}`;
      return `must be a valid ${issue.format}${got(value, found)}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}${got(value, found)}`;
    case 'invalid_value':
      return oneOf(issue.values, value, found);
    case 'invalid_union':
      if (issue.errors.length === 0 && 'options' in issue && issue.options) return oneOf(issue.options, value, found);
      if (issue.inclusive === false) return `matches more than one alternative${got(value, found)}`;
      return `does not match any allowed form${got(value, found)}`;
    case 'custom':
      return issue.message + (isPlainObject(value) || Array.isArray(value) ? '' : got(value, found));
    default:
      return issue.message + got(value, found);
  }
}

function sizeReason(issue: core.$ZodIssueTooSmall | core.$ZodIssueTooBig, value: unknown, found: boolean): string {
  const small = issue.code === 'too_small';
  const limit = small ? (issue as core.$ZodIssueTooSmall).minimum : (issue as core.$ZodIssueTooBig).maximum;
  const n = Number(limit);
  switch (issue.origin) {
    case 'array':
    case 'set': {
      const count = Array.isArray(value) ? `, got ${value.length}` : '';
      const bound = issue.exact ? 'exactly' : small ? 'at least' : 'at most';
      return `must have ${bound} ${n} item${n === 1 ? '' : 's'}${count}`;
    }
    case 'string': {
      if (small && n === 1 && !issue.exact) return 'must not be empty';
      const bound = issue.exact ? 'exactly' : small ? 'at least' : 'at most';
      return `must be ${bound} ${n} character${n === 1 ? '' : 's'} long${got(value, found)}`;
    }
    default: {
      const op = issue.exact ? '=' : small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      return `must be ${op} ${n}${got(value, found)}`;
    }
  }
}

function oneOf(values: readonly unknown[], value: unknown, found: boolean): string {
  const list = values.map((v) => (typeof v === 'string' ? v : show(v)));
  const rule = list.length === 1 ? `must be ${typeof values[0] === 'string' ? JSON.stringify(values[0]) : list[0]}` : `must be one of ${list.join(', ')}`;
  return !found || value === undefined ? `required: ${rule}` : rule + got(value, found);
}

function typeNoun(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'array':
    case 'tuple':
      return 'an array';
    case 'object':
    case 'record':
      return 'an object';
    case 'boolean':
      return 'true or false';
    case 'undefined':
    case 'never':
      return 'absent';
    default:
      return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
  }
}

function got(value: unknown, found: boolean): string {
  return found && value !== undefined ? `, got ${show(value)}` : '';
}

function stripGot(message: string): string {
  const i = message.lastIndexOf(', got ');
  return i >= 0 ? message.slice(0, i) : message;
}

/** A received value, short enough for one line. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function lookup(input: unknown, path: Path): { found: boolean; value: unknown } {
  let node = input;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === 'number' && step < node.length) node = node[step];
    else if (isPlainObject(node) && typeof step === 'string' && Object.hasOwn(node, step)) node = node[step];
    else return { found: false, value: undefined };
  }
  return { found: true, value: node };
}

function didYouMean(key: string, input: unknown, path: Path): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const known of knownKeysAt(input, path)) {
    const d = known.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  const limit = key.length <= 4 ? 1 : 2;
  return best !== undefined && bestDistance <= limit ? ` (did you mean "${best}"?)` : '';
}

/** Optimal string alignment distance: a transposition ("cuont" -> "count") costs 1. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
