// Placeholders in a request's path, header values and body: the grammar and its validation, zod-free
// (the driver worker compiles templates with it). One owner: the scenario schema, the driver's
// compiler (engine/driver/requests/request-compile.ts), the k6 export and the editor all parse through here.
//
//   {{counter}}          the request's number in its phase, 1, 2, ... (shared by the phase's clients)
//   {{randomInt 1 100}}  a whole number from 1 to 100 inclusive, from the phase's seed
//   {{uuid}}             a random UUID (v4)
//   {{now}} {{isoTime}}  the send time: ms since the epoch / ISO 8601
//   {{user}}             the number of the slot sending it, 1-based across the phase's clients
//                        (closed phases: one per user; open loop: one per connection)
//   {{data.<column>}}    the column of this request's row of the phase's data file
//   {{vars.<name>}}      a value the user extracted earlier (journeys), empty when not set
//
// `{{` cannot start anything in JSON outside a string, so a JSON body stays readable. A literal `{{`
// is written `\{{` (in the scenario's JSON text: "\\{{"); any other backslash is itself. Every
// placeholder in one request is evaluated once per request; all data placeholders read one row.
//
// A data or vars value is data where it lands (the driver escapes it, request-compile.ts): in the
// path percent-encoded, in a header without control characters, and in a JSON body (see
// isJsonBody) written as JSON: inside a string escaped for it (a quote or backslash cannot end the
// string), outside one a number, true, false or null as it is and anything else as a JSON string.

export const BUILTIN_PLACEHOLDERS = ['counter', 'randomInt', 'uuid', 'now', 'isoTime', 'user'] as const;
export type BuiltinPlaceholder = (typeof BUILTIN_PLACEHOLDERS)[number];

export type Placeholder =
  | { kind: 'counter' | 'uuid' | 'now' | 'isoTime' | 'user' }
  | { kind: 'randomInt'; min: number; max: number }
  | { kind: 'data'; column: string }
  | { kind: 'vars'; name: string };

/** A template as fixed text and placeholders, in order; adjacent text is merged. */
export type TemplatePart = string | Placeholder;

export type ParsedTemplate = { ok: true; parts: TemplatePart[] } | { ok: false; message: string };

const KNOWN = 'counter, randomInt MIN MAX, uuid, now, isoTime, user, data.<column>, vars.<name>';
const VAR_NAME = /^[A-Za-z_][\w.-]*$/;
const INT = /^-?\d{1,15}$/;

/** `text` as a template that means exactly itself: every `{{` escaped (imported requests, issue 28). */
export function literalText(text: string): string {
  return text.replaceAll('{{', '\\{{');
}

/** Cheap test before parsing: text without `{{` is fixed (the driver keeps its prebuilt bytes). */
export function hasPlaceholders(text: string): boolean {
  return text.includes('{{');
}

function parseInner(inner: string): Placeholder | string {
  const text = inner.trim();
  if (text.startsWith('data.')) {
    const column = text.slice(5).trim();
    return column === '' ? "'{{data.}}' needs a column: {{data.<column>}}" : { kind: 'data', column };
  }
  if (text.startsWith('vars.')) {
    const name = text.slice(5).trim();
    return VAR_NAME.test(name) ? { kind: 'vars', name } : `'{{${text}}}': a variable name is letters, digits, _, - and . (starting with a letter or _)`;
  }
  const [name = '', ...args] = text.split(/\s+/);
  switch (name) {
    case 'counter':
    case 'uuid':
    case 'now':
    case 'isoTime':
    case 'user':
      return args.length === 0 ? { kind: name } : `'{{${name}}}' takes no arguments`;
    case 'randomInt': {
      const [a, b] = args;
      if (args.length !== 2 || !INT.test(a!) || !INT.test(b!)) return `'{{${text}}}': randomInt needs two whole numbers, {{randomInt MIN MAX}}`;
      const min = Number(a);
      const max = Number(b);
      return min <= max ? { kind: 'randomInt', min, max } : `'{{${text}}}': bad range, ${min} is above ${max}`;
    }
    default:
      return `unknown placeholder '{{${text}}}'; known: ${KNOWN}`;
  }
}

/** Splits a template into fixed text and placeholders, or says what is wrong (one line). */
export function parseTemplate(text: string): ParsedTemplate {
  const parts: TemplatePart[] = [];
  let fixed = '';
  let i = 0;
  for (;;) {
    const open = text.indexOf('{{', i);
    if (open < 0) break;
    if (open > 0 && text[open - 1] === '\\') {
      fixed += text.slice(i, open - 1) + '{{';
      i = open + 2;
      continue;
    }
    const close = text.indexOf('}}', open + 2);
    if (close < 0) return { ok: false, message: `'{{' at ${open} is not closed by '}}' (a literal {{ is written \\{{)` };
    const placeholder = parseInner(text.slice(open + 2, close));
    if (typeof placeholder === 'string') return { ok: false, message: placeholder };
    fixed += text.slice(i, open);
    if (fixed !== '') parts.push(fixed);
    fixed = '';
    parts.push(placeholder);
    i = close + 2;
  }
  fixed += text.slice(i);
  if (fixed !== '') parts.push(fixed);
  return { ok: true, parts };
}

/** Whether a request's body is a JSON document: its content-type says JSON (application/json,
 * application/<x>+json), or it has none and the body starts with `{` or `[`. */
export function isJsonBody(headers: Readonly<Record<string, string>> | undefined, body: string): boolean {
  const type = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (type === undefined) return /^\s*[[{]/.test(body);
  const media = (type.split(';')[0] ?? '').trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/**
 * For each placeholder of a JSON body's parts (fixed text and placeholders, in order): whether it
 * stands inside a JSON string. The fixed text decides; a value escaped for its place leaves the
 * string state as it was.
 */
export function insideJsonStrings<P>(parts: readonly (string | P)[]): boolean[] {
  const inside: boolean[] = [];
  let inString = false;
  let escaped = false;
  for (const part of parts) {
    if (typeof part !== 'string') {
      inside.push(inString);
      continue;
    }
    for (const c of part) {
      if (escaped) escaped = false;
      else if (inString && c === '\\') escaped = true;
      else if (c === '"') inString = !inString;
    }
  }
  return inside;
}

const JSON_UNSAFE = /["\\\x00-\x1f\ud800-\udfff]/;
const JSON_LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

/** A value written inside a JSON string: quotes, backslashes and control characters escaped. */
export function jsonStringText(value: string): string {
  return JSON_UNSAFE.test(value) ? JSON.stringify(value).slice(1, -1) : value;
}

/** A value standing alone in JSON: a number, true, false or null as it is, anything else a JSON string. */
export function jsonValueText(value: string): string {
  return JSON_LITERAL.test(value) ? value : JSON.stringify(value);
}

/** The placeholders of a parsed template. */
export const placeholdersOf = (parts: readonly TemplatePart[]): Placeholder[] => parts.filter((p): p is Placeholder => typeof p !== 'string');

/** The fields of a request template that may hold placeholders (structural: no import of the schema). */
export interface TemplateFields {
  path: string;
  headers?: Record<string, string>;
  body?: string | undefined;
}

/** Each placeholder-holding field of a template, with its key path below the template. */
export function templateFields(t: TemplateFields): { key: (string | number)[]; text: string }[] {
  const out: { key: (string | number)[]; text: string }[] = [{ key: ['path'], text: t.path }];
  for (const [name, value] of Object.entries(t.headers ?? {})) out.push({ key: ['headers', name], text: value });
  if (t.body !== undefined) out.push({ key: ['body'], text: t.body });
  return out;
}

export interface VariableIssue {
  path: (string | number)[];
  message: string;
}

/** What a template may name: whether its phase has a data file (and, once read, its columns). */
export interface TemplateScope {
  /** the phase's data file name, or undefined when it has none */
  data: string | undefined;
  /** the data file's columns, when known (the file was read); null: checked when it is */
  columns: ReadonlySet<string> | null;
}

/** Issues of one template's fields, with paths below `at` (e.g. ['phases', 0, 'requests', 1]). */
export function templateIssues(t: TemplateFields, scope: TemplateScope, at: (string | number)[]): VariableIssue[] {
  const issues: VariableIssue[] = [];
  for (const field of templateFields(t)) {
    if (!hasPlaceholders(field.text)) continue;
    const parsed = parseTemplate(field.text);
    const path = [...at, ...field.key];
    if (!parsed.ok) {
      issues.push({ path, message: parsed.message });
      continue;
    }
    for (const p of placeholdersOf(parsed.parts)) {
      if (p.kind !== 'data') continue;
      if (scope.data === undefined) issues.push({ path, message: `'{{data.${p.column}}}' but this phase has no data file (set the phase's "data" to one of the scenario's data names)` });
      else if (scope.columns !== null && !scope.columns.has(p.column)) {
        // the columns are the file's first line: not quoted (the file may be /etc/shadow or a key)
        const n = scope.columns.size;
        issues.push({ path, message: `no column '${p.column}' in data '${scope.data}' (its file has ${n} column${n === 1 ? '' : 's'})` });
      }
    }
  }
  return issues;
}

/** The parts of a scenario placeholders depend on (structural, so the schema can call this). */
export interface VariablesInput {
  data?: readonly { name: string }[] | undefined;
  phases: readonly { data?: string | undefined; requests: readonly TemplateFields[] }[];
}

/**
 * Every placeholder problem of a scenario, each at its field's JSON path: bad syntax, an unknown
 * built-in, a bad range, data read by a phase without a data file, a phase naming no declared data,
 * two data files of one name. Columns are checked when the files are read (the run's start).
 */
export function variableIssues(s: VariablesInput, columnsOf: (data: string) => ReadonlySet<string> | null = () => null): VariableIssue[] {
  const issues: VariableIssue[] = [];
  const names = new Set<string>();
  (s.data ?? []).forEach((d, i) => {
    if (names.has(d.name)) issues.push({ path: ['data', i, 'name'], message: `a data file named '${d.name}' is already declared` });
    names.add(d.name);
  });
  s.phases.forEach((phase, i) => {
    if (phase.data !== undefined && !names.has(phase.data)) {
      issues.push({ path: ['phases', i, 'data'], message: `no data file '${phase.data}'; declared: ${[...names].join(', ') || '(none: add it to the scenario\'s "data")'}` });
    }
    const scope: TemplateScope = { data: phase.data, columns: phase.data !== undefined && names.has(phase.data) ? columnsOf(phase.data) : null };
    phase.requests.forEach((t, j) => issues.push(...templateIssues(t, scope, ['phases', i, 'requests', j])));
  });
  return issues;
}

/** A data file as read (engine/scenario/data-files.ts): its columns and rows of text, in file order. */
export interface DataSet {
  name: string;
  order: 'sequential' | 'random' | 'unique';
  columns: string[];
  rows: string[][];
}
