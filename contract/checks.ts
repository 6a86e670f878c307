import { parseJsonPath, patternIssue, type JsonKey } from './extract.js';
import { sizeText } from './request-limits.js';

// What a request's `expect` asks of its response, as a list of named checks (issue 39). Zod-free, so
// the schema (contract/expect.ts), the driver worker and the editor read a spec with the same code:
//   "expect": {
//     "status": 200 | [200, 201] | "2xx" | {"min": 200, "max": 299},   "status 2xx"
//     "bodyIncludes": "ok",                                             "body includes ok"
//     "checks": [
//       {"header": "content-type", "matches": "json"},                  "header content-type matches json"
//       {"header": "x-api", "equals": "v2"},                            "header x-api equals v2"
//       {"bodyIncludes": "ok"}, {"bodyMatches": "\"id\":\\d+"},         "body includes ok", "body matches ..."
//       {"json": "data.id", "exists": true},                            "json data.id exists" (false: "absent")
//       {"json": "data.id", "equals": 3},                               "json data.id equals 3"
//       {"json": "data.items", "type": "array"},                        "json data.items is array"
//       {"sizeAtMost": 65536},                                          "size at most 64 KiB"
//       {"status": "2xx", "name": "answered"}                           any check may name itself
//     ]
//   }
// A failed check is a 'check' error of its request, except the two keys `expect` had before, which
// count as they always did: a status that is not expect.status is an 'http' error at 400 and above,
// else a 'body' error (a list or range: a 'check' error), and a missing expect.bodyIncludes a 'body'
// error. With no status check at all, a status of 400 or above is an 'http' error, as before.
// Evaluated by contract/check-eval.ts; JSON paths as extract reads them (contract/extract.ts).

export const JSON_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** One code, a list, a class ("2xx") or a range. */
export type StatusExpect = number | readonly number[] | string | { readonly min: number; readonly max: number };

/** One entry of expect.checks as written (the schema has checked each key's own type). */
export interface CheckSpec {
  readonly name?: string | undefined;
  readonly status?: StatusExpect | undefined;
  readonly header?: string | undefined;
  readonly json?: string | undefined;
  readonly equals?: unknown;
  readonly matches?: string | undefined;
  readonly exists?: boolean | undefined;
  readonly type?: JsonType | undefined;
  readonly bodyIncludes?: string | undefined;
  readonly bodyMatches?: string | undefined;
  readonly sizeAtMost?: number | undefined;
}

export interface ExpectSpec {
  readonly status?: StatusExpect | undefined;
  readonly bodyIncludes?: string | undefined;
  readonly checks?: readonly CheckSpec[] | undefined;
}

/** The error kind a failed check gives its request when the status was fine (a status of 400 and above is always 'http'). */
export type CheckFailureKind = 'body' | 'check';

/** What a check reads and how it judges. */
type CheckSubject =
  | { readonly kind: 'status'; readonly ranges: readonly (readonly [number, number])[] }
  | { readonly kind: 'header'; readonly header: string; readonly op: 'equals' | 'matches'; readonly value: string }
  /** stream: the top-level expect.bodyIncludes, which the driver searches as the body streams (any size) */
  | { readonly kind: 'body'; readonly op: 'includes' | 'matches'; readonly value: string; readonly stream: boolean }
  | { readonly kind: 'json'; readonly path: string; readonly keys: readonly JsonKey[]; readonly op: 'exists' | 'absent' | 'equals' | 'type'; readonly value: unknown }
  | { readonly kind: 'size'; readonly atMost: number };

/** A check as read from its spec, named. */
type ReadCheck = { readonly name: string; readonly failsAs: CheckFailureKind } & CheckSubject;

/** A check, read and named; `at`: where it is written, below `expect` (['status'], ['checks', 2]). */
export type Check = ReadCheck & { readonly at: readonly (string | number)[] };

/** Checks of one request, at most. */
export const MAX_CHECKS = 32;
/** A check's own name, in characters. */
export const MAX_CHECK_NAME_CHARS = 200;
/** A header's expected value, a body's needle or a json value's JSON text, in characters. */
export const MAX_CHECK_VALUE_CHARS = 4096;

/** A problem of one expect, at its path below `expect` (e.g. ['checks', 2, 'matches']). */
export interface CheckIssue {
  path: (string | number)[];
  message: string;
}

/** A text cut for a name or a message: at most `max` characters. */
export function cutText(text: string, max = 40): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const STATUS_CLASS = /^([1-5])xx$/;

function statusRanges(s: StatusExpect): [number, number][] | string {
  if (typeof s === 'number') return [[s, s]];
  if (typeof s === 'string') {
    const m = STATUS_CLASS.exec(s);
    // the schema's own words (contract/expect.ts), so a scenario gets the line once
    return m === null ? 'must be a status class like "2xx"' : [[Number(m[1]) * 100, Number(m[1]) * 100 + 99]];
  }
  if (Array.isArray(s)) return s.length === 0 ? 'a list of codes needs at least one' : s.map((n: number) => [n, n]);
  const range = s as { min: number; max: number };
  return range.min > range.max ? `min ${range.min} is above max ${range.max}` : [[range.min, range.max]];
}

function statusText(s: StatusExpect): string {
  if (typeof s === 'number' || typeof s === 'string') return String(s);
  if (Array.isArray(s)) return s.join(', ');
  const range = s as { min: number; max: number };
  return `${range.min}-${range.max}`;
}

/** A JSON value in a name: its JSON text, cut. */
function jsonText(value: unknown): string {
  return cutText(JSON.stringify(value) ?? 'null');
}

const SUBJECTS = ['status', 'header', 'json', 'bodyIncludes', 'bodyMatches', 'sizeAtMost'] as const;
const OPERANDS = ['equals', 'matches', 'exists', 'type'] as const;
/** which operands each subject takes (one of them), none for the rest */
const TAKES: Record<(typeof SUBJECTS)[number], readonly (typeof OPERANDS)[number][]> = {
  status: [],
  header: ['equals', 'matches'],
  json: ['exists', 'equals', 'type'],
  bodyIncludes: [],
  bodyMatches: [],
  sizeAtMost: [],
};

/** One checks[] entry read, or the problem with it (at a path below the entry). */
function readCheck(spec: CheckSpec): ReadCheck | CheckIssue {
  const subjects = SUBJECTS.filter((k) => spec[k] !== undefined);
  if (subjects.length !== 1) {
    return { path: [], message: subjects.length === 0 ? `a check needs one of ${SUBJECTS.join(', ')}` : `one check per entry: ${subjects.join(' and ')} are two; give each its own entry` };
  }
  const subject = subjects[0]!;
  const operands = OPERANDS.filter((k) => spec[k] !== undefined);
  const takes = TAKES[subject];
  const stray = operands.find((o) => !takes.includes(o));
  if (stray !== undefined) return { path: [stray], message: takes.length === 0 ? `${subject} takes no ${stray}` : `${subject} takes ${takes.join(' or ')}, not ${stray}` };
  if (takes.length > 0 && operands.length !== 1) return { path: [], message: `${subject} needs ${operands.length === 0 ? 'one' : 'only one'} of ${takes.join(', ')}` };
  const valueIssue = (key: string, text: string): CheckIssue | null => (text.length > MAX_CHECK_VALUE_CHARS ? { path: [key], message: `${text.length} characters; at most ${MAX_CHECK_VALUE_CHARS}` } : null);
  switch (subject) {
    case 'status': {
      const ranges = statusRanges(spec.status!);
      if (typeof ranges === 'string') return { path: ['status'], message: ranges };
      return { kind: 'status', ranges, failsAs: 'check', name: `status ${statusText(spec.status!)}` };
    }
    case 'header': {
      const header = spec.header!.toLowerCase();
      if (spec.matches !== undefined) {
        const issue = patternIssue(spec.matches);
        if (issue !== null) return { path: ['matches'], message: issue };
        return { kind: 'header', header, op: 'matches', value: spec.matches, failsAs: 'check', name: `header ${header} matches ${cutText(spec.matches)}` };
      }
      if (typeof spec.equals !== 'string') return { path: ['equals'], message: "a header's value is text: give it in quotes" };
      return valueIssue('equals', spec.equals) ?? { kind: 'header', header, op: 'equals', value: spec.equals, failsAs: 'check', name: `header ${header} equals ${cutText(spec.equals)}` };
    }
    case 'json': {
      const path = spec.json!;
      const keys = parseJsonPath(path);
      if (typeof keys === 'string') return { path: ['json'], message: keys };
      const base = { kind: 'json' as const, path, keys, failsAs: 'check' as const };
      if (spec.exists !== undefined) return { ...base, op: spec.exists ? 'exists' : 'absent', value: null, name: `json ${path} ${spec.exists ? 'exists' : 'absent'}` };
      if (spec.type !== undefined) return { ...base, op: 'type', value: spec.type, name: `json ${path} is ${spec.type}` };
      const text = JSON.stringify(spec.equals);
      return valueIssue('equals', text) ?? { ...base, op: 'equals', value: spec.equals, name: `json ${path} equals ${jsonText(spec.equals)}` };
    }
    case 'bodyIncludes':
      return valueIssue('bodyIncludes', spec.bodyIncludes!) ?? { kind: 'body', op: 'includes', value: spec.bodyIncludes!, stream: false, failsAs: 'check', name: `body includes ${cutText(spec.bodyIncludes!)}` };
    case 'bodyMatches': {
      const issue = patternIssue(spec.bodyMatches!);
      if (issue !== null) return { path: ['bodyMatches'], message: issue };
      return { kind: 'body', op: 'matches', value: spec.bodyMatches!, stream: false, failsAs: 'check', name: `body matches ${cutText(spec.bodyMatches!)}` };
    }
    case 'sizeAtMost':
      return { kind: 'size', atMost: spec.sizeAtMost!, failsAs: 'check', name: `size at most ${sizeText(spec.sizeAtMost!)}` };
  }
}

/**
 * An expect's checks, named and in order (expect.status, expect.bodyIncludes, then expect.checks),
 * and the problems of those that could not be read (left out of `checks`). Names are unique within
 * a request: results count each check under its name.
 */
export function readChecks(expect: ExpectSpec | undefined): { checks: Check[]; issues: CheckIssue[] } {
  const checks: Check[] = [];
  const issues: CheckIssue[] = [];
  if (expect === undefined) return { checks, issues };
  const seen = new Map<string, string>();
  const add = (check: ReadCheck, where: (string | number)[], named: boolean): void => {
    const first = seen.get(check.name);
    if (first !== undefined) issues.push({ path: named ? [...where, 'name'] : where, message: `${first} is already named '${check.name}'; give this check a name of its own ("name": ...)` });
    else seen.set(check.name, where.join('.').replace(/\.(\d+)/g, '[$1]'));
    checks.push({ ...check, at: where });
  };
  if (expect.status !== undefined) {
    const ranges = statusRanges(expect.status);
    if (typeof ranges === 'string') issues.push({ path: ['status'], message: ranges });
    // one code, as before: a status under 400 that is not it is a 'body' error
    else add({ kind: 'status', ranges, failsAs: typeof expect.status === 'number' ? 'body' : 'check', name: `status ${statusText(expect.status)}` }, ['status'], false);
  }
  if (expect.bodyIncludes !== undefined) add({ kind: 'body', op: 'includes', value: expect.bodyIncludes, stream: true, failsAs: 'body', name: `body includes ${cutText(expect.bodyIncludes)}` }, ['bodyIncludes'], false);
  const list = expect.checks ?? [];
  if (list.length > MAX_CHECKS) issues.push({ path: ['checks'], message: `${list.length} checks; at most ${MAX_CHECKS} per request` });
  list.slice(0, MAX_CHECKS).forEach((spec, i) => {
    const read = readCheck(spec);
    if ('message' in read) return void issues.push({ path: ['checks', i, ...read.path], message: read.message });
    const named = spec.name !== undefined;
    add(named ? { ...read, name: cutText(spec.name!, MAX_CHECK_NAME_CHARS) } : read, ['checks', i], named);
  });
  return { checks, issues };
}

/** Every check problem of a scenario's requests, at its JSON path (the schema calls it, as flowIssues). */
export function checkIssues(s: { phases: readonly { requests: readonly { expect?: ExpectSpec | undefined }[] }[] }): CheckIssue[] {
  const out: CheckIssue[] = [];
  s.phases.forEach((phase, i) =>
    phase.requests.forEach((t, j) => {
      for (const issue of readChecks(t.expect).issues) out.push({ path: ['phases', i, 'requests', j, 'expect', ...issue.path], message: issue.message });
    }),
  );
  return out;
}
