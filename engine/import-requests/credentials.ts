import { isCredentialField, isLoginField, isPasswordField } from '../../contract/secret-names.js';
import { jsonStringText } from '../../contract/variables.js';
import { headerVerdict } from './headers.js';
import type { Step } from './journey-step.js';

// Credentials a recording holds that no correlation replaced (a password, a static token, an API
// key, a session cookie) leave the scenario's text: each becomes {{data.<column>}} and its value a
// column of a one-row CSV written beside the scenario (mode 0600, by the caller), so the scenario
// can be shared and the file kept back, and more rows can add users. Never dropped (the request
// would fail), never kept inline. Where each is found:
//   headers   Authorization / Proxy-Authorization (the part after the scheme), each Cookie pair,
//             any header named like a secret (X-Api-Key, X-Auth-Token...: headers.ts)
//   query     a parameter named like a credential (api_key=, token=, password=;
//             the names: contract/secret-names.ts)
//   body      a JSON string or form field named like one; with a password its login name goes too
// A value sent again under the same name (a static key on every request) is one column.

export interface Credentials {
  columns: string[];
  /** the one row: each column's value, as the driver will send it */
  row: string[];
}

class Columns {
  readonly columns: string[] = [];
  readonly row: string[] = [];
  private readonly byValue = new Map<string, string>();

  /** The column of `value` found under `hint`: the one that already holds it (the same key sent again), else a new one. */
  of(hint: string, value: string): string {
    const base = hint.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'secret';
    const key = `${base}\u0000${value}`;
    const had = this.byValue.get(key);
    if (had !== undefined) return had;
    let name = base;
    for (let n = 2; this.columns.includes(name); n++) name = `${base}_${n}`;
    this.columns.push(name);
    this.row.push(value);
    this.byValue.set(key, name);
    return name;
  }
}

/** `k=v` pairs of a query or form body, with each raw value's offset in `text`. */
function pairsOf(text: string, offset: number): { key: string; raw: string; at: number }[] {
  const out: { key: string; raw: string; at: number }[] = [];
  let at = offset;
  for (const part of text.slice(offset).split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0) {
      let key: string;
      try {
        key = decodeURIComponent(part.slice(0, eq).replaceAll('+', ' '));
      } catch {
        key = part.slice(0, eq);
      }
      out.push({ key, raw: part.slice(eq + 1), at: at + eq + 1 });
    }
    at += part.length + 1;
  }
  return out;
}

const decoded = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
};

/** Exactly at `at`, and ends where the pair ends. */
const exactlyAt = (start: number) => (text: string, at: number, length: number) => at === start && (at + length === text.length || text.charAt(at + length) === '&');

function moveHeaders(step: Step, cols: Columns): void {
  for (const [name, text] of step.headers) {
    const lower = name.toLowerCase();
    const value = text.recorded;
    // a cookie pair by pair (a correlated one is a placeholder already); another header correlated is left whole
    if (lower !== 'cookie' && text.replaced) continue;
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const m = /^(\S+)\s+(.+)$/.exec(value);
      const scheme = m?.[1]?.toLowerCase();
      const secret = m?.[2] ?? value;
      const column = cols.of(scheme === 'bearer' ? 'token' : scheme === 'basic' ? 'basic_auth' : lower, secret);
      text.replace(secret, `{{data.${column}}}`, (t, at, n) => at + n === t.length);
    } else if (lower === 'cookie') {
      for (const m of value.matchAll(/(?:^|;)\s*([^=;\s]+)=([^;]*)/g)) {
        const v = m[2]!.trimEnd();
        const from = m.index + m[0].length - m[2]!.length;
        if (v !== '') text.replace(v, `{{data.${cols.of(`cookie_${m[1]}`, v)}}}`, (_t, at) => at === from);
      }
    } else if (headerVerdict(name, value) === 'secret') {
      text.replace(value, `{{data.${cols.of(lower, value)}}}`, (_t, at) => at === 0);
    }
  }
}

function moveQuery(step: Step, cols: Columns): void {
  const path = step.path.recorded;
  const q = path.indexOf('?');
  if (q < 0) return;
  for (const { key, raw, at } of pairsOf(path, q + 1)) {
    // the driver percent-encodes a value in the path: the column holds it decoded
    if (raw !== '' && isCredentialField(key)) step.path.replace(raw, `{{data.${cols.of(key, decoded(raw))}}}`, exactlyAt(at));
  }
}

function moveJsonBody(step: Step, cols: Columns): void {
  const body = step.body!;
  let doc: unknown;
  try {
    doc = JSON.parse(body.recorded);
  } catch {
    return;
  }
  const found: { key: string; value: string }[] = [];
  let leaves = 0;
  const walk = (v: unknown, key: string, depth: number): void => {
    if (leaves++ > 2000 || depth > 32) return;
    if (Array.isArray(v)) v.forEach((x) => walk(x, key, depth + 1));
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1);
    else if (typeof v === 'string' && v !== '') found.push({ key, value: v });
  };
  walk(doc, '', 0);
  const password = found.some((f) => isPasswordField(f.key));
  const mask = step.jsonMask!;
  const inString = (t: string, at: number, n: number) => mask[at] === 1 && mask[at + n - 1] === 1 && t.charAt(at - 1) === '"' && t.charAt(at + n) === '"';
  for (const { key, value } of found) {
    if (!isCredentialField(key) && !(password && isLoginField(key))) continue;
    const needle = jsonStringText(value);
    if (body.count(needle, inString) > 0) body.replace(needle, `{{data.${cols.of(key, value)}}}`, inString);
  }
}

function moveFormBody(step: Step, cols: Columns): void {
  const body = step.body!;
  const pairs = pairsOf(body.recorded, 0);
  const password = pairs.some((p) => isPasswordField(p.key));
  for (const { key, raw, at } of pairs) {
    // the driver writes a value in a form body as it is: the column holds it as it was sent
    if (raw !== '' && (isCredentialField(key) || (password && isLoginField(key)))) body.replace(raw, `{{data.${cols.of(key, raw)}}}`, exactlyAt(at));
  }
}

const isForm = (step: Step): boolean =>
  Object.entries(step.request.headers).some(([n, v]) => n.toLowerCase() === 'content-type' && /x-www-form-urlencoded/i.test(v));

/** Moves every credential left in the steps to the credentials' columns; null when there was none. */
export function moveCredentials(steps: readonly Step[]): Credentials | null {
  const cols = new Columns();
  for (const step of steps) {
    moveHeaders(step, cols);
    moveQuery(step, cols);
    if (step.body === null) continue;
    if (step.bodyKind === 'json') moveJsonBody(step, cols);
    else if (isForm(step)) moveFormBody(step, cols);
  }
  return cols.columns.length === 0 ? null : { columns: cols.columns, row: cols.row };
}

const csvField = (text: string): string => (/[",\r\n]|^\s|\s$/.test(text) || text === '' ? `"${text.replaceAll('"', '""')}"` : text);

/** The credentials as a CSV file: a header row and the one row. */
export function credentialsCsv(c: Credentials): string {
  return `${c.columns.map(csvField).join(',')}\n${c.row.map(csvField).join(',')}\n`;
}
