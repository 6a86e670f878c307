import { extractRegex, jsonAt, parseJsonPath, type Extract, type JsonKey } from '../../contract/extract.js';
import { fieldsOf, type Step, type StepField } from './journey-step.js';

// Correlation: a value a response returned that a later request sent back (a token, an id, a CSRF
// field) becomes an extract on the step that received it and {{vars.<name>}} where it is sent, so a
// replay sends the value its own run was given rather than the recorded one.
//
// The rule, so no value is correlated by chance:
//  - the value is matched exactly, as the driver would write it there (percent-encoded in the path,
//    JSON-escaped inside a JSON string, as is in a header or another body; journey-step.ts), and
//    standing alone: no letter or digit right before or after it (a token, not a piece of a word);
//  - a string value has at least MIN_VALUE_CHARS characters; a number only when its JSON key names
//    an id (id, userId, item_id) and it is a whole segment of a later path (/items/6);
//  - the client never sent it before the response that first returned it (an echo such as the
//    e-mail a login answers with is the client's own value, not the server's);
//  - the extract, run on the recorded response with the driver's own functions (contract/extract.ts;
//    a Set-Cookie's first cookie by a pattern on the header),
//    gives exactly the value; a step extracts one value (the format's extract is one a step), so a
//    second value of the same step is taken from an earlier response that returned it too, or left.
// The source is the latest response before the first request sending the value.

const MIN_VALUE_CHARS = 8;
/** A value longer than this is not looked for (a token is shorter; it bounds the search). */
const MAX_VALUE_CHARS = 4096;
/** JSON leaves looked at per response. */
const MAX_LEAVES = 2000;
const ID_KEY = /^id$|_id$|[a-z]Id$|ID$/;
/** Response headers that describe the response, never a value a client sends back. */
const NOT_A_VALUE = /^(date|server|content-|transfer-encoding|connection|keep-alive|vary|cache-control|expires|last-modified|etag|age|via|access-control-|strict-transport-security|x-content-type-options|x-frame-options|x-xss-protection|referrer-policy|permissions-policy|server-timing|report-to|nel|alt-svc|x-powered-by|accept-ranges|link|cross-origin-|timing-allow-origin|x-ratelimit-|ratelimit-|retry-after|set-cookie)/i;
/** Request headers a client fills in itself: a value found there is a coincidence. */
const NOT_SENT_BACK = new Set(['content-type', 'accept', 'accept-encoding', 'user-agent', 'origin']);

type ExtractFrom = { from: 'json'; path: string } | { from: 'header'; name: string; pattern?: string } | { from: 'regex'; pattern: string };

interface Source {
  step: number;
  from: ExtractFrom;
  /** for the preview: "JSON accessToken", "header X-Csrf-Token" */
  where: string;
  /** the variable's name, before it is made unique */
  hint: string;
}

/** One proposed correlation, with everything its preview shows (the value itself stays in the engine). */
export interface Correlation {
  id: string;
  var: string;
  value: string;
  source: Source;
  /** every place it replaces: the step and the field's keys in its request */
  uses: { step: number; key: string[] }[];
  /** a number id: replaced only as a whole path segment */
  numberId: boolean;
}

const jsonPathText = (keys: readonly JsonKey[]): string | null => {
  let out = '';
  for (const k of keys) {
    if (typeof k === 'number') out += `[${k}]`;
    else if (/^[^.[\]]+$/.test(k)) out += out === '' ? k : `.${k}`;
    else return null;
  }
  return out === '' ? null : out;
};

const varHint = (text: string): string => {
  const clean = text.replace(/[^\w-]+/g, '_').replace(/^[^A-Za-z_]+/, '');
  return clean === '' ? 'value' : clean.slice(0, 40);
};

/** The last path segment that is not an id ("items" of /api/items or /api/items/6). */
const kindOf = (step: Step): string => step.request.url.pathname.split('/').filter((s) => s !== '' && !/^\d+$/.test(s)).at(-1) ?? 'item';

/** JSON leaves worth correlating: long strings, and numbers under an id-like key. */
function jsonSources(step: Step, index: number, body: string, add: (value: string, s: Source, numberId: boolean) => void): void {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return;
  }
  let leaves = 0;
  const walk = (v: unknown, keys: JsonKey[]): void => {
    if (leaves >= MAX_LEAVES || keys.length > 32) return;
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...keys, i]));
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...keys, k]);
    else {
      leaves++;
      const last = keys.findLast((k): k is string => typeof k === 'string') ?? '';
      const numberId = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && ID_KEY.test(last);
      if (!numberId && (typeof v !== 'string' || v.length < MIN_VALUE_CHARS || v.length > MAX_VALUE_CHARS)) return;
      const path = jsonPathText(keys);
      if (path === null) return;
      const value = String(v);
      const parsed = parseJsonPath(path);
      if (typeof parsed === 'string' || jsonAt(doc, parsed) !== value) return;
      const hint = last === 'id' ? `${kindOf(step)}_id` : last === '' ? 'value' : last;
      add(value, { step: index, from: { from: 'json', path }, where: `JSON ${path}`, hint: varHint(hint) }, numberId);
    }
  };
  walk(doc, []);
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Hidden form fields and CSRF meta tags of an HTML page, each with a pattern that finds its value. */
function htmlSources(index: number, body: string, add: (value: string, s: Source, numberId: boolean) => void): void {
  for (const tag of body.matchAll(/<(input|meta)\b[^>]*>/gi)) {
    const attrs = new Map<string, { value: string; at: number }>();
    for (const a of tag[0].matchAll(/\b(name|value|type|content)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) attrs.set(a[1]!.toLowerCase(), { value: a[2] ?? a[3] ?? '', at: a.index });
    const name = attrs.get('name');
    const holder = tag[1]!.toLowerCase() === 'input' ? (attrs.get('type')?.value.toLowerCase() === 'hidden' ? attrs.get('value') : undefined) : /csrf|xsrf/i.test(name?.value ?? '') ? attrs.get('content') : undefined;
    if (name === undefined || holder === undefined || holder.value.length < MIN_VALUE_CHARS) continue;
    const attr = tag[1]!.toLowerCase() === 'input' ? 'value' : 'content';
    const named = `name=["']${escapeRegex(name.value)}["']`;
    const valued = `${attr}=["']([^"']*)["']`;
    const pattern = name.at < holder.at ? `${named}[^>]*${valued}` : `${valued}[^>]*${named}`;
    const re = extractRegex(pattern);
    if (typeof re === 'string' || re.exec(body)?.[1] !== holder.value) continue;
    add(holder.value, { step: index, from: { from: 'regex', pattern }, where: `the page's ${attr === 'value' ? 'hidden field' : 'meta tag'} ${name.value}`, hint: varHint(name.value) }, false);
  }
}

function sourcesOf(step: Step, index: number, add: (value: string, s: Source, numberId: boolean) => void): void {
  const response = step.response;
  if (response === null) return;
  if (response.body !== null) {
    if (/json/i.test(response.mimeType) || /^\s*[[{]/.test(response.body)) jsonSources(step, index, response.body, add);
    else if (/html/i.test(response.mimeType) || /^\s*</.test(response.body)) htmlSources(index, response.body, add);
  }
  // the driver keeps the first header of a name: of Set-Cookie, its first cookie, by a pattern on its value
  const cookie = response.headers.find((h) => h.name.toLowerCase() === 'set-cookie');
  const pair = cookie === undefined ? null : /^([^=;\s]+)=([^;]*)/.exec(cookie.value);
  if (cookie !== undefined && pair !== null && pair[2]!.length >= MIN_VALUE_CHARS && pair[2]!.length <= MAX_VALUE_CHARS) {
    const pattern = `^${escapeRegex(pair[1]!)}=([^;]*)`;
    const re = extractRegex(pattern);
    if (typeof re !== 'string' && re.exec(cookie.value)?.[1] === pair[2]) {
      add(pair[2]!, { step: index, from: { from: 'header', name: cookie.name, pattern }, where: `cookie ${pair[1]} of header ${cookie.name}`, hint: varHint(pair[1]!) }, false);
    }
  }
  const seen = new Set<string>();
  for (const { name, value } of response.headers) {
    const lower = name.toLowerCase();
    if (seen.has(lower)) continue;
    seen.add(lower);
    if (NOT_A_VALUE.test(lower) || value.length < MIN_VALUE_CHARS || value.length > MAX_VALUE_CHARS) continue;
    add(value, { step: index, from: { from: 'header', name }, where: `header ${name}`, hint: varHint(lower) }, false);
  }
}

const RUN = /[A-Za-z0-9]+/g;

/** Which steps' recorded requests hold each run of letters and digits: a value stands alone, so its first run is one of them. */
function runIndex(steps: readonly Step[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  steps.forEach((step, i) => {
    for (const field of fieldsOf(step)) {
      for (const m of field.text.recorded.matchAll(RUN)) {
        const at = index.get(m[0]);
        if (at === undefined) index.set(m[0], [i]);
        else if (at.at(-1) !== i) at.push(i);
      }
    }
  });
  return index;
}

const sentBack = (field: StepField): boolean => field.key[0] !== 'headers' || !NOT_SENT_BACK.has(field.key[1]!.toLowerCase());

/** A number id only as a whole segment of the path (before the query). */
const pathSegment = (text: string, at: number, length: number): boolean => {
  const query = text.indexOf('?');
  const end = at + length;
  return text.charAt(at - 1) === '/' && (end === text.length || text.charAt(end) === '/' || text.charAt(end) === '?') && (query < 0 || end <= query);
};

/** Where `value` stands in a step's fields, as the rule allows. */
function usesIn(step: Step, value: string, numberId: boolean): string[][] {
  const keys: string[][] = [];
  for (const field of fieldsOf(step)) {
    if (!sentBack(field)) continue;
    if (numberId) {
      if (field.key[0] === 'path' && field.text.count(value, pathSegment) > 0) keys.push(field.key);
      continue;
    }
    const needle = field.needle(value);
    if (needle !== null && field.text.count(needle, field.where) > 0) keys.push(field.key);
  }
  return keys;
}

/** Whether the client sent `value` in any of the steps up to `last` (an echo of its own); a number id: as a path segment. */
function sentBefore(steps: readonly Step[], stepsWithRun: readonly number[], last: number, value: string, numberId: boolean): boolean {
  return stepsWithRun.some(
    (i) => i <= last && (numberId ? usesIn(steps[i]!, value, true).length > 0 : fieldsOf(steps[i]!).some((f) => f.text.recorded.includes(value) || f.text.recorded.includes(encodeURIComponent(value)))),
  );
}

function extractOf(name: string, from: ExtractFrom): Extract {
  switch (from.from) {
    case 'json':
      return { var: name, from: 'json', path: from.path };
    case 'header':
      return { var: name, from: 'header', name: from.name, ...(from.pattern === undefined ? {} : { pattern: from.pattern }) };
    case 'regex':
      return { var: name, from: 'regex', pattern: from.pattern };
  }
}

/** The correlations of a journey's steps, in the order their values are first sent; `left`: values sent back that no step could extract (one extract a step). */
export function findCorrelations(steps: readonly Step[]): { correlations: Correlation[]; left: number } {
  const candidates = new Map<string, { sources: Source[]; numberId: boolean }>();
  steps.forEach((step, i) =>
    sourcesOf(step, i, (value, source, numberId) => {
      const key = `${numberId ? 'n' : 's'}:${value}`;
      const c = candidates.get(key);
      if (c === undefined) candidates.set(key, { sources: [source], numberId });
      else if (c.sources.at(-1)!.step !== i) c.sources.push(source);
    }),
  );
  const runs = runIndex(steps);
  const found: { value: string; numberId: boolean; sources: Source[]; uses: { step: number; key: string[] }[] }[] = [];
  for (const [key, { sources, numberId }] of candidates) {
    const value = key.slice(2);
    const lead = /^[A-Za-z0-9]+/.exec(value)?.[0];
    const withRun = lead === undefined ? undefined : runs.get(lead);
    if (withRun === undefined) continue;
    const first = sources[0]!.step;
    if (sentBefore(steps, withRun, first, value, numberId)) continue;
    const uses = withRun.filter((i) => i > first).flatMap((i) => usesIn(steps[i]!, value, numberId).map((k) => ({ step: i, key: k })));
    if (uses.length > 0) found.push({ value, numberId, sources, uses });
  }
  // first sent first; of values first sent by the same request, the one sent in more places first (it wins its step's one extract)
  found.sort((a, b) => a.uses[0]!.step - b.uses[0]!.step || b.uses.length - a.uses.length);

  const extracting = new Set<number>();
  const names = new Set<string>();
  const out: Correlation[] = [];
  let left = 0;
  for (const f of found) {
    const firstUse = f.uses[0]!.step;
    // the latest response before the first use whose step does not extract another value yet
    const source = f.sources.filter((s) => s.step < firstUse && !extracting.has(s.step)).at(-1);
    if (source === undefined) {
      left++;
      continue;
    }
    extracting.add(source.step);
    let name = source.hint;
    for (let n = 2; names.has(name); n++) name = `${source.hint}${n}`;
    names.add(name);
    out.push({ id: `c${out.length + 1}`, var: name, value: f.value, numberId: f.numberId, source, uses: f.uses.filter((u) => u.step > source.step) });
  }
  return { correlations: out, left };
}

/** The accepted correlations applied: each source step extracts its value, every later place sends {{vars.<name>}}. */
export function applyCorrelations(steps: Step[], accepted: readonly Correlation[]): void {
  for (const c of accepted) {
    const placeholder = `{{vars.${c.var}}}`;
    steps[c.source.step]!.extract = extractOf(c.var, c.source.from);
    for (let i = c.source.step + 1; i < steps.length; i++) {
      for (const field of fieldsOf(steps[i]!)) {
        if (!sentBack(field)) continue;
        if (c.numberId) {
          if (field.key[0] === 'path') field.text.replace(c.value, placeholder, pathSegment);
          continue;
        }
        const needle = field.needle(c.value);
        if (needle !== null) field.text.replace(needle, placeholder, field.where);
      }
    }
  }
}
