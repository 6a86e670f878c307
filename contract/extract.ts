import { backtrackRisk } from './regex-shape.js';
import { MAX_EXTRACT_BODY_BYTES, MAX_EXTRACT_PATTERN_CHARS, sizeText } from './request-limits.js';

// What a journey's step takes from its response into the user's variables ({{vars.<name>}}), and
// how: zod-free, so the driver worker extracts with the same code the schema validates with.
//   { "var": "token", "from": "json", "path": "data.items[0].id" }   a JSON field (text as is, else JSON)
//   { "var": "sid",   "from": "header", "name": "X-Session" }        a response header (first of that name)
//   { "var": "sid",   "from": "header", "name": "Set-Cookie", "pattern": "^sid=([^;]*)" }   the first group of it
//   { "var": "csrf",  "from": "regex", "pattern": "csrf=(\\w+)" }    the first capture group of the body
// A missing field, header or match (or a JSON null) is a failed extraction: an 'extract' error of the step;
// so is a json or regex extract's body past MAX_EXTRACT_BODY_BYTES (contract/request-limits.ts).

export type Extract =
  | { var: string; from: 'json'; path: string }
  | { var: string; from: 'header'; name: string; pattern?: string | undefined }
  | { var: string; from: 'regex'; pattern: string };

export type JsonKey = string | number;

/** A JSON path ("token", "a.b[0]", "[2].id") as keys, or a one-line reason it is not one. */
export function parseJsonPath(path: string): JsonKey[] | string {
  const keys: JsonKey[] = [];
  const part = /\[(\d{1,9})\]|(?:^|\.)([^.[\]]+)/y;
  let at = 0;
  while (at < path.length) {
    part.lastIndex = at;
    const m = part.exec(path);
    // a name after the first is joined by a dot; the first has none
    if (m === null || m.index !== at || (at === 0 && path.startsWith('.'))) return 'not a JSON path like token or data.items[0].id';
    keys.push(m[1] !== undefined ? Number(m[1]) : m[2]!);
    at = part.lastIndex;
  }
  return keys.length > 0 ? keys : 'a JSON path must not be empty';
}

/** Makes the RegExp of a checked pattern: a plain one by default; the driver's runs in linear time. */
export type RegExpMaker = (pattern: string) => RegExp;

const plainRegExp: RegExpMaker = (pattern) => new RegExp(pattern);

/**
 * Why a pattern may not run over a response, or null: it must compile, be at most
 * MAX_EXTRACT_PATTERN_CHARS and have no shape that backtracks badly (contract/regex-shape.ts). The
 * one place a pattern is judged: an extract's and a check's (contract/checks.ts) alike.
 */
export function patternIssue(pattern: string): string | null {
  if (pattern.length > MAX_EXTRACT_PATTERN_CHARS) return `a pattern of ${pattern.length} characters; at most ${MAX_EXTRACT_PATTERN_CHARS} (it runs over bodies of up to ${sizeText(MAX_EXTRACT_BODY_BYTES)})`;
  try {
    new RegExp(pattern);
  } catch (err) {
    return `not a regular expression (${(err instanceof Error ? err.message : String(err)).replace(/^Invalid regular expression: /, '')})`;
  }
  return backtrackRisk(pattern);
}

/**
 * The regular expression of a regex extract, or a one-line reason: a pattern patternIssue takes,
 * that captures. The one place an extract's pattern is checked and compiled: the schema and the driver both call it.
 */
export function extractRegex(pattern: string, make: RegExpMaker = plainRegExp): RegExp | string {
  const issue = patternIssue(pattern);
  if (issue !== null) return issue;
  // an alternation with the empty string matches once more than the pattern has groups
  const groups = (new RegExp(`${pattern}|`).exec('')?.length ?? 1) - 1;
  return groups >= 1 ? make(pattern) : "no capture group: the first group's text is the value, e.g. token=(\\w+)";
}

/** The value at `keys` in a parsed JSON value (a JSON null included), or undefined when absent. */
export function jsonValueAt(value: unknown, keys: readonly JsonKey[]): unknown {
  let v = value;
  for (const k of keys) {
    if (typeof v !== 'object' || v === null) return undefined;
    if (typeof k === 'number' ? !Array.isArray(v) : Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = (v as Record<JsonKey, unknown>)[k];
  }
  return v;
}

/** The text at `keys` in a parsed JSON value, or null when absent (or JSON null). */
export function jsonAt(value: unknown, keys: readonly JsonKey[]): string | null {
  const v = jsonValueAt(value, keys);
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}
