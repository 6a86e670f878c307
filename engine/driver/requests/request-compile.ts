import { randomUUID } from 'node:crypto';
import { hasPlaceholders, insideJsonStrings, isJsonBody, jsonStringText, jsonValueText, parseTemplate, type TemplatePart } from '../../../contract/variables.js';
import { MAX_REQUEST_BYTES } from '../../../contract/request-limits.js';
import type { Prng } from '../arrivals.js';

// A request template with placeholders (contract/variables.ts), compiled once per phase into fixed
// segments (adjacent fixed text merged) and slots, so a request costs the slots' values, one string
// for the head and one for the body, and one pooled buffer they are written into:
//
//   "POST /users/{{counter}} HTTP/1.1\r\nhost: h\r\nx-id: {{uuid}}\r\n" + content-length + "\r\n\r\n" + body
//    └─ fixed ─┘└─ slot ──┘└──────── fixed ───────────┘└─ slot ─┘                         └ segments ┘
//
// The fast path (h1.ts) writes the bytes from build(); undici's path takes parts(). A template with
// no placeholders never gets here: it keeps its prebuilt Buffer.
// A request is at most MAX_REQUEST_BYTES (contract/request-limits.ts) of path, header names and
// values, and body: past it build() and parts() give null, having stopped at the slot that crossed
// it (a 1 MB value in 300 slots costs 4 of them, not a 300 MB string), and the group records the
// request as an error without sending it. Validation refuses what data values make too big
// (engine/scenario/request-size.ts); what is left is values extracted at run time.

/** What a request's placeholders read; the caller fills it per request (one object per group, reused). */
export interface RequestInputs {
  /** the request's number in its phase, from 1 */
  counter: number;
  /** the slot sending it, from 1 (across the phase's clients) */
  user: number;
  /** this request's data row (the data file's columns, in order), or null without a data file */
  row: readonly string[] | null;
  /** the user's variables (extracted earlier), or null: every {{vars.x}} is empty */
  vars: ReadonlyMap<string, string> | null;
  /** the group's seeded random numbers (randomInt) */
  prng: Prng;
}

const K_COUNTER = 0;
const K_RANDOM = 1;
const K_UUID = 2;
const K_NOW = 3;
const K_ISO = 4;
const K_USER = 5;
const K_DATA = 6;
const K_VARS = 7;

/** where a value lands decides how it is escaped: user strings stay data */
const IN_PATH = 0;
const IN_HEADER = 1;
const IN_BODY = 2;
const IN_JSON_STRING = 3;
const IN_JSON_VALUE = 4;

interface SlotSpec {
  kind: number;
  min: number;
  span: number;
  column: number;
  name: string;
  where: number;
}

/** fixed text (latin1 in the head, as the prebuilt head is; UTF-8 in the body) or a slot */
type Piece = string | SlotSpec;

const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/g;

function encodePath(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // a lone surrogate (an extracted "\ud800") has no UTF-8: sent as U+FFFD
    return encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
  }
}

function escapeValue(value: string, where: number): string {
  // a path value is one segment or query value (a '/', '?' or '#' in it is data, not structure);
  // a header value cannot end its line; in a JSON body a value cannot end its string or add keys
  // (contract/variables.ts); in any other body it goes as it is
  if (where === IN_PATH) return encodePath(value);
  if (where === IN_HEADER) return value.replace(CONTROL, ' ');
  if (where === IN_JSON_STRING) return jsonStringText(value);
  if (where === IN_JSON_VALUE) return jsonValueText(value);
  return value;
}

function toPieces(parts: readonly TemplatePart[], where: number, columns: readonly string[]): Piece[] {
  return parts.map((p): Piece => {
    if (typeof p === 'string') return p;
    const slot: SlotSpec = { kind: K_COUNTER, min: 0, span: 0, column: -1, name: '', where };
    switch (p.kind) {
      case 'counter':
        break;
      case 'randomInt':
        slot.kind = K_RANDOM;
        slot.min = p.min;
        slot.span = p.max - p.min + 1;
        break;
      case 'uuid':
        slot.kind = K_UUID;
        break;
      case 'now':
        slot.kind = K_NOW;
        break;
      case 'isoTime':
        slot.kind = K_ISO;
        break;
      case 'user':
        slot.kind = K_USER;
        break;
      case 'data':
        slot.kind = K_DATA;
        // columns are checked (at the field's path) when the file is read; a caller that only asks
        // whether the fast path applies passes none, and an unknown column reads as empty
        slot.column = columns.indexOf(p.column);
        break;
      case 'vars':
        slot.kind = K_VARS;
        slot.name = p.name;
        break;
    }
    return slot;
  });
}

function parsePieces(text: string, where: number, columns: readonly string[]): Piece[] {
  const parsed = parseTemplate(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return toPieces(parsed.parts, where, columns);
}

/** A body's pieces; in a JSON body each slot knows whether it stands inside a string. */
function bodyPieces(text: string, headers: Readonly<Record<string, string>>, columns: readonly string[]): Piece[] {
  const pieces = parsePieces(text, IN_BODY, columns);
  if (!isJsonBody(headers, text)) return pieces;
  const inside = insideJsonStrings(pieces);
  let i = 0;
  for (const p of pieces) if (typeof p !== 'string') p.where = inside[i++] === true ? IN_JSON_STRING : IN_JSON_VALUE;
  return pieces;
}

/** The template's text as it goes out when it has no placeholders (a `\{{` becomes `{{`), else null. */
export function fixedText(text: string): string | null {
  if (!hasPlaceholders(text)) return text;
  const parsed = parseTemplate(text);
  if (!parsed.ok) return null;
  if (parsed.parts.some((p) => typeof p !== 'string')) return null;
  return parsed.parts.join('');
}

/** What a compiled template's request is, for undici. */
export interface RequestParts {
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export interface TemplateText {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** A template whose path, some header or body varies; compiled once, built per request. */
export class VariableRequest {
  private readonly head: Piece[] = [];
  private readonly bodyPieces: Piece[] | null;
  private readonly pathPieces: Piece[];
  private readonly headerPieces: [string, Piece[]][];
  private readonly withLength: boolean;
  /** the head's own bytes beyond path, header names and values: request line, host, ': ' and CRLFs */
  private readonly frameChars: number;
  /** any {{now}} or {{isoTime}}: only then is the clock read */
  private readonly readsClock: boolean;
  readonly readsData: boolean;

  /**
   * @param host the fast path's host header value (null: undici only)
   * @param columns the phase's data file columns (empty without one)
   */
  constructor(t: TemplateText, host: string | null, columns: readonly string[]) {
    this.pathPieces = parsePieces(t.path, IN_PATH, columns);
    this.headerPieces = Object.entries(t.headers).map(([name, value]) => [name, parsePieces(value, IN_HEADER, columns)]);
    this.bodyPieces = t.body === undefined ? null : bodyPieces(t.body, t.headers, columns);
    this.withLength = this.bodyPieces !== null || t.method === 'POST' || t.method === 'PUT' || t.method === 'PATCH';
    const all = [...this.pathPieces, ...this.headerPieces.flatMap(([, p]) => p), ...(this.bodyPieces ?? [])];
    this.readsData = all.some((p) => typeof p !== 'string' && p.kind === K_DATA);
    this.readsClock = all.some((p) => typeof p !== 'string' && (p.kind === K_NOW || p.kind === K_ISO));
    this.frameChars = 0;
    if (host !== null) {
      const head: Piece[] = [`${t.method} `, ...this.pathPieces, ` HTTP/1.1\r\nhost: ${host}\r\n`];
      this.frameChars = `${t.method}  HTTP/1.1\r\nhost: ${host}\r\n`.length + 4 * this.headerPieces.length + (this.withLength ? 'content-length: '.length : 2);
      for (const [name, pieces] of this.headerPieces) head.push(`${name}: `, ...pieces, '\r\n');
      head.push(this.withLength ? 'content-length: ' : '\r\n');
      // adjacent fixed text merged: fewer pieces to walk per request
      for (const p of head) {
        const last = this.head.length - 1;
        if (typeof p === 'string' && typeof this.head[last] === 'string') this.head[last] += p;
        else this.head.push(p);
      }
    }
  }

  private value(s: SlotSpec, inputs: RequestInputs, now: number): string {
    switch (s.kind) {
      case K_COUNTER:
        return String(inputs.counter);
      case K_RANDOM:
        return String(s.min + Math.floor(inputs.prng.next() * s.span));
      case K_UUID:
        return randomUUID();
      case K_NOW:
        return String(now);
      case K_ISO:
        return new Date(now).toISOString();
      case K_USER:
        return String(inputs.user);
      case K_DATA:
        return escapeValue(inputs.row?.[s.column] ?? '', s.where);
      default:
        return escapeValue(inputs.vars?.get(s.name) ?? '', s.where);
    }
  }

  /** The pieces' text, or null as soon as it passes `budget` characters (a character is at least a byte). */
  private text(pieces: readonly Piece[], inputs: RequestInputs, now: number, budget: number): string | null {
    let text = '';
    for (const p of pieces) {
      text += typeof p === 'string' ? p : this.value(p, inputs, now);
      if (text.length > budget) return null;
    }
    return text;
  }

  /** The fast path's request bytes: one buffer, Content-Length from the body as built; null over MAX_REQUEST_BYTES. */
  build(inputs: RequestInputs): Buffer | null {
    const now = this.readsClock ? Date.now() : 0;
    // one string per part and two writes: cheaper than a copy per fixed segment (1.2 -> 0.9 µs a request here)
    let head = this.text(this.head, inputs, now, MAX_REQUEST_BYTES + this.frameChars);
    if (head === null) return null;
    const left = MAX_REQUEST_BYTES - (head.length - this.frameChars);
    const body = this.bodyPieces === null ? '' : this.text(this.bodyPieces, inputs, now, left);
    if (body === null) return null;
    const bodyLength = body === '' ? 0 : Buffer.byteLength(body);
    if (bodyLength > left) return null;
    if (this.withLength) head += `${bodyLength}\r\n\r\n`;
    const out = Buffer.allocUnsafe(head.length + bodyLength);
    out.write(head, 0, head.length, 'latin1');
    if (bodyLength > 0) out.write(body, head.length, bodyLength, 'utf8');
    return out;
  }

  /** undici's request: path, headers and body as built for this request; null over MAX_REQUEST_BYTES. */
  parts(inputs: RequestInputs): RequestParts | null {
    const now = this.readsClock ? Date.now() : 0;
    let left = MAX_REQUEST_BYTES;
    const path = this.text(this.pathPieces, inputs, now, left);
    if (path === null) return null;
    left -= path.length;
    const headers: Record<string, string> = {};
    for (const [name, pieces] of this.headerPieces) {
      const value = this.text(pieces, inputs, now, left - name.length);
      if (value === null) return null;
      headers[name] = value;
      left -= name.length + value.length;
    }
    let body: Buffer | null = null;
    if (this.bodyPieces !== null) {
      const text = this.text(this.bodyPieces, inputs, now, left);
      if (text === null) return null;
      body = Buffer.from(text);
      if (body.length > left) return null;
    }
    return { path, headers, body };
  }
}

/** Whether a template varies: any placeholder in its path, header values or body. */
export function isVariable(t: TemplateText): boolean {
  return fixedText(t.path) === null || Object.values(t.headers).some((v) => fixedText(v) === null) || (t.body !== undefined && fixedText(t.body) === null);
}

/** The template with escapes resolved (`\{{` -> `{{`), for a template that does not vary. */
export function fixedTemplate<T extends TemplateText>(t: T): T {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(t.headers)) headers[name] = fixedText(value) ?? value;
  return { ...t, path: fixedText(t.path) ?? t.path, headers, ...(t.body !== undefined && { body: fixedText(t.body) ?? t.body }) };
}
