import { Buffer } from 'node:buffer';
import { MAX_BODY_INCLUDES_BYTES, MAX_REQUEST_BYTES, overText, sizeText } from '../../contract/request-limits.js';
import type { Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { templateName } from '../../contract/template-name.js';
import { insideJsonStrings, isJsonBody, jsonStringText, jsonValueText, parseTemplate, type DataSet, type Placeholder } from '../../contract/variables.js';
import { formatPath } from './param-path.js';

// A template's bounds (contract/request-limits.ts), checked before a run: the request it can build
// and what it makes a request keep of its response. Issue 35: 300 uses of a 1 MB data value in a
// 3 KB scenario built 300 MB requests (7.1 GB of memory; at 600 uses "Invalid string length").
// The request's size is counted as the driver counts it (engine/driver/requests/request-compile.ts): path,
// header names and values, and body, each value as escaped where it lands. A value's longest is
// known for built-ins and, once the files are read, for data columns; {{vars.x}} are known only at
// run time, where the driver refuses such a request instead of sending it.

/** The longest text of a built-in placeholder (a counter or user up to 2^53, {{isoTime}} in extended years). */
const BUILTIN_CHARS = { counter: 16, uuid: 36, now: 13, isoTime: 27, user: 16 } as const;

type Where = 'path' | 'header' | 'body' | 'json-string' | 'json-value';

/** A value's bytes where it lands, escaped as the driver escapes it. */
function valueBytes(value: string, where: Where): number {
  switch (where) {
    case 'path':
      try {
        return encodeURIComponent(value).length;
      } catch {
        return 3 * Buffer.byteLength(value); // a lone surrogate goes as U+FFFD, %EF%BF%BD
      }
    case 'header':
      return value.length; // the head is written latin1: a byte per UTF-16 unit
    case 'body':
      return Buffer.byteLength(value);
    case 'json-string':
      return Buffer.byteLength(jsonStringText(value));
    case 'json-value':
      return Buffer.byteLength(jsonValueText(value));
  }
}

/** The most an escape can multiply a value's UTF-8 bytes by, where it lands (a control character in JSON: 1 byte to 6). */
const GROWTH: Record<Where, number> = { path: 3, header: 1, body: 1, 'json-string': 6, 'json-value': 6 };

/** Each data column's longest value where it lands: a cheap bound first, every row only when that bound is too big. */
class ColumnSizes {
  private readonly raw = new Map<string, number>();
  private readonly exact = new Map<string, number>();
  constructor(private readonly data: DataSet) {}

  /** The longest of `measure` over the column's values (0 for a column the file lacks). */
  private longestOf(column: string, measure: (value: string) => number): number {
    const c = this.data.columns.indexOf(column);
    let n = 0;
    if (c >= 0) for (const row of this.data.rows) n = Math.max(n, measure(row[c] ?? ''));
    return n;
  }

  /** An upper bound of the column's bytes at `where`. */
  bound(column: string, where: Where): number {
    let raw = this.raw.get(column);
    if (raw === undefined) this.raw.set(column, (raw = this.longestOf(column, (v) => Buffer.byteLength(v))));
    return raw * GROWTH[where] + (where === 'json-value' ? 2 : 0);
  }

  /** The column's longest value at `where`, in bytes. */
  longest(column: string, where: Where): number {
    const key = `${where} ${column}`;
    let n = this.exact.get(key);
    if (n === undefined) this.exact.set(key, (n = this.longestOf(column, (v) => valueBytes(v, where))));
    return n;
  }
}

/** One placeholder use: where it lands. */
interface Use {
  p: Placeholder;
  where: Where;
}

/** A template's fixed bytes and its placeholders' uses, as the driver would build it. */
function templateUses(t: Scenario['phases'][number]['requests'][number]): { fixed: number; uses: Use[] } {
  let fixed = 0;
  const uses: Use[] = [];
  const add = (text: string, where: Where, fixedBytes: (s: string) => number): Placeholder[] => {
    const parsed = parseTemplate(text);
    if (!parsed.ok) return []; // variables.ts names it
    const found: Placeholder[] = [];
    for (const part of parsed.parts) {
      if (typeof part === 'string') fixed += fixedBytes(part);
      else {
        found.push(part);
        uses.push({ p: part, where });
      }
    }
    return found;
  };
  add(t.path, 'path', (s) => s.length);
  for (const [name, value] of Object.entries(t.headers)) {
    fixed += name.length;
    add(value, 'header', (s) => s.length);
  }
  if (t.body !== undefined) {
    const first = uses.length;
    const found = add(t.body, 'body', (s) => Buffer.byteLength(s));
    if (isJsonBody(t.headers, t.body) && found.length > 0) {
      const parsed = parseTemplate(t.body);
      const inside = parsed.ok ? insideJsonStrings(parsed.parts) : [];
      found.forEach((_, k) => (uses[first + k]!.where = inside[k] === true ? 'json-string' : 'json-value'));
    }
  }
  return { fixed, uses };
}

/** A placeholder's longest bytes where it lands (`exact`: every row of a data column). */
function useBytes(u: Use, columns: ColumnSizes | null, exact: boolean): number {
  const p = u.p;
  switch (p.kind) {
    case 'data':
      return columns === null ? 0 : exact ? columns.longest(p.column, u.where) : columns.bound(p.column, u.where);
    case 'vars':
      return 0; // known at run time only: the driver refuses such a request
    case 'randomInt':
      return Math.max(String(p.min).length, String(p.max).length);
    default:
      return BUILTIN_CHARS[p.kind];
  }
}

/**
 * Every template whose request could be over MAX_REQUEST_BYTES, at its JSON path, naming the
 * template, its size and what makes it (the placeholder with the largest share). `data`: the
 * scenario's data files as read, or null before they are (data values count as empty until then).
 */
export function requestSizeIssues(scenario: Scenario, data: readonly DataSet[] | null): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  scenario.phases.forEach((phase, i) => {
    const set = phase.data === undefined ? undefined : data?.find((d) => d.name === phase.data);
    const columns = set === undefined ? null : new ColumnSizes(set);
    phase.requests.forEach((t, j) => {
      const { fixed, uses } = templateUses(t);
      const size = (exact: boolean): number => uses.reduce((n, u) => n + useBytes(u, columns, exact), fixed);
      if (size(false) <= MAX_REQUEST_BYTES || size(true) <= MAX_REQUEST_BYTES) return;
      // the placeholder whose uses weigh most, named with its count
      const shares = new Map<string, { uses: number; bytes: number }>();
      for (const u of uses) {
        const name = u.p.kind === 'data' ? `{{data.${u.p.column}}}` : `{{${u.p.kind}}}`;
        const share = shares.get(name) ?? { uses: 0, bytes: 0 };
        share.uses++;
        share.bytes += useBytes(u, columns, true);
        shares.set(name, share);
      }
      const [name, top] = [...shares].sort((a, b) => b[1].bytes - a[1].bytes)[0]!;
      const why = `${top.uses} use${top.uses === 1 ? '' : 's'} of ${name} make${top.uses === 1 ? 's' : ''} ${sizeText(top.bytes)}`;
      issues.push({
        path: formatPath(['phases', i, 'requests', j]),
        message: `'${templateName(t)}' can build a request of ${overText(size(true), MAX_REQUEST_BYTES)} (${why}); a request may have at most ${sizeText(MAX_REQUEST_BYTES)} of path, headers and body`,
      });
    });
  });
  return issues;
}

/** Every expect.bodyIncludes over MAX_BODY_INCLUDES_BYTES: each request in flight keeps that much of its response. */
export function bodyIncludesIssues(scenario: Scenario): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  scenario.phases.forEach((phase, i) =>
    phase.requests.forEach((t, j) => {
      const needle = t.expect?.bodyIncludes;
      if (needle === undefined || Buffer.byteLength(needle) <= MAX_BODY_INCLUDES_BYTES) return;
      issues.push({
        path: formatPath(['phases', i, 'requests', j, 'expect', 'bodyIncludes']),
        message: `${overText(Buffer.byteLength(needle), MAX_BODY_INCLUDES_BYTES)}; at most ${sizeText(MAX_BODY_INCLUDES_BYTES)} (each request in flight keeps this much of its response to search it)`,
      });
    }),
  );
  return issues;
}
