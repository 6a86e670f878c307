import { literalText } from '../../contract/variables.js';
import { dataPlaceholder, type DataColumns } from './data-columns.js';
import type { DescribedRequest } from './described-scenario.js';
import { headerVerdict } from './headers.js';
import type { Method } from './captured.js';
import { authParts, type AuthFindings } from './openapi-auth.js';
import { encodeComponent, encodePathText } from './url-encode.js';
import { fromExample, fromSchema, newMaking, schemaExample, type Made, type Making } from './openapi-values.js';

// One OpenAPI operation as a request template: its path with path parameters filled, its required
// query, header and cookie parameters (and optional ones that have an example), its body (JSON, a
// form, or text), its credentials. A value the description gives an example for becomes a data
// column, {{data.<operation>.<field>}}; one made from the schema's type is written in the request and
// listed in a note. What a request cannot send (a file upload, an XML-only body) leaves the operation
// out, with the reason.

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What making the requests found, for the notes. */
export interface OperationFindings {
  /** "getPetById petId (integer)": values made from a type */
  typed: string[];
  /** operations whose made value was cut (a schema referring to itself, or too wide) */
  cut: string[];
  /** form bodies: their values sit URL-encoded in the data file */
  forms: number;
  auth: AuthFindings;
}

export interface Operation {
  name: string;
  method: Method;
  /** the description's path, e.g. /pet/{petId} */
  path: string;
  /** the base URL's path, prepended ('' or /v2) */
  basePath: string;
  operation: Obj;
  /** path-level parameters, overridden by the operation's own */
  pathParameters: unknown[];
  doc: Obj;
}

/** A request, or why the operation cannot be one. */
export type Made1 = { request: DescribedRequest } | { leftOut: string };

/** Never on a header's line (a value written as it is). */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/g;

const JSON_MEDIA = (m: string): boolean => m === 'application/json' || /^application\/[\w.+-]*\+json$/.test(m) || m === '*/*';

class Writer {
  constructor(
    private readonly op: string,
    private readonly columns: DataColumns,
    private readonly found: OperationFindings,
  ) {}

  /** A leaf as text: an example through its column (null: none left, written as it is), a type's value as it is. */
  private leafText(made: Extract<Made, { kind: 'leaf' }>, at: string, encode: (s: string) => string): { column: string | null; text: string } {
    const text = made.value === null ? '' : String(made.value);
    if (made.from === 'type') {
      this.found.typed.push(`${this.op} ${at} (${made.type})`);
      return { column: null, text: literalText(encode(text)) };
    }
    const column = this.columns.example(`${this.op}.${at}`, made.value);
    return column === null ? { column: null, text: literalText(encode(text)) } : { column, text: dataPlaceholder(column) };
  }

  /** A JSON body: strings as "{{data.x}}" (escaped inside the string), numbers and booleans bare. */
  json(made: Made, at: string): string {
    if (made.kind === 'object') return `{${made.entries.map(([k, v]) => `${literalText(JSON.stringify(k))}:${this.json(v, at === '' ? k : `${at}.${k}`)}`).join(',')}}`;
    if (made.kind === 'array') return `[${made.items.map((v, i) => this.json(v, at === '' ? String(i) : `${at}.${i}`)).join(',')}]`;
    if (made.value === null) return 'null';
    const { column, text } = this.leafText(made, at === '' ? 'body' : at, (s) => s);
    if (column === null) return literalText(JSON.stringify(made.value));
    return typeof made.value === 'string' ? `"${text}"` : text;
  }

  /** A value in a path or query: the driver percent-encodes a column's value; a literal is encoded here. */
  urlValue(made: Made, at: string): string {
    if (made.kind === 'leaf') return this.leafText(made, at, encodeComponent).text;
    // a structured value in one place: comma-separated (OpenAPI's simple and form styles, not exploded)
    if (made.kind === 'array') return made.items.map((v, i) => this.urlValue(v, `${at}.${i}`)).join(',');
    return made.entries.map(([k, v]) => `${literalText(encodeComponent(k))},${this.urlValue(v, `${at}.${k}`)}`).join(',');
  }

  /** A header or cookie value: as it is (the driver keeps a column's value on its line). */
  headerValue(made: Made, at: string): string {
    if (made.kind === 'leaf') return this.leafText(made, at, (s) => s.replace(CONTROL, ' ')).text;
    if (made.kind === 'array') return made.items.map((v, i) => this.headerValue(v, `${at}.${i}`)).join(',');
    return made.entries.map(([k, v]) => `${literalText(k)},${this.headerValue(v, `${at}.${k}`)}`).join(',');
  }

  /** name=value pairs of a query parameter in its style (form exploded by default, deepObject, delimited). */
  query(name: string, made: Made, param: Obj): string[] {
    const style = typeof param.style === 'string' ? param.style : 'form';
    const explode = typeof param.explode === 'boolean' ? param.explode : style === 'form';
    const key = literalText(encodeComponent(name));
    if (made.kind === 'array') {
      if (explode) return made.items.map((v, i) => `${key}=${this.urlValue(v, `${name}.${i}`)}`);
      const join = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
      return [`${key}=${made.items.map((v, i) => this.urlValue(v, `${name}.${i}`)).join(join)}`];
    }
    if (made.kind === 'object') {
      if (style === 'deepObject') return made.entries.map(([k, v]) => `${key}%5B${literalText(encodeComponent(k))}%5D=${this.urlValue(v, `${name}.${k}`)}`);
      if (explode) return made.entries.map(([k, v]) => `${literalText(encodeComponent(k))}=${this.urlValue(v, `${name}.${k}`)}`);
    }
    return [`${key}=${this.urlValue(made, name)}`];
  }

  /** An urlencoded form body: each field's value goes to the data file URL-encoded (a body value is sent as it is). */
  form(made: Made): string {
    if (made.kind !== 'object') return this.urlValue(made, 'body');
    let columns = 0;
    const pair = (k: string, v: Made, at: string): string => {
      if (v.kind !== 'leaf') return `${literalText(encodeComponent(k))}=${literalText(encodeComponent(JSON.stringify(plain(v))))}`;
      const encoded: Made = v.from === 'example' && v.value !== null ? { ...v, value: encodeComponent(String(v.value)) } : v;
      const { column, text } = this.leafText(encoded, at, v.from === 'type' ? encodeComponent : (s) => s);
      if (column !== null) columns++;
      return `${literalText(encodeComponent(k))}=${text}`;
    };
    const text = made.entries.flatMap(([k, v]) => (v.kind === 'array' ? v.items.map((item, i) => pair(k, item, `${k}.${i}`)) : [pair(k, v, k)])).join('&');
    if (columns > 0) this.found.forms++;
    return text;
  }
}

/** A made value as plain JSON (a nested value in a form field). */
function plain(made: Made): unknown {
  if (made.kind === 'leaf') return made.value;
  if (made.kind === 'array') return made.items.map(plain);
  return Object.fromEntries(made.entries.map(([k, v]) => [k, plain(v)]));
}

/** A parameter's or media type's example: `example`, else the first of `examples` that has a value. */
function ownExample(o: Obj): { value: unknown } | null {
  if (o.example !== undefined) return { value: o.example };
  if (isRecord(o.examples)) {
    for (const e of Object.values(o.examples)) if (isRecord(e) && e.value !== undefined) return { value: e.value };
  }
  return null;
}

function valueOf(o: Obj, m: Making): Made | undefined {
  const own = ownExample(o);
  if (own !== null) return fromExample(own.value, m);
  return fromSchema(o.schema, m);
}

/** The operation's parameters, the operation's own replacing the path's of the same name and place. */
function parametersOf(op: Operation): Obj[] {
  const byKey = new Map<string, Obj>();
  for (const p of [...op.pathParameters, ...(Array.isArray(op.operation.parameters) ? op.operation.parameters : [])]) {
    if (isRecord(p) && typeof p.name === 'string' && typeof p.in === 'string') byKey.set(`${p.in} ${p.name}`, p);
  }
  return [...byKey.values()];
}

/** Headers the request writes itself, never taken from a parameter (OpenAPI says to ignore these). */
const OWN_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** The body's media type and value, or why none can be sent. */
function bodyOf(op: Operation, m: Making): { media: string; made: Made } | { leftOut: string } | null {
  const body = op.operation.requestBody;
  if (!isRecord(body) || !isRecord(body.content)) return null;
  const medias = Object.keys(body.content);
  const pick = medias.find((x) => JSON_MEDIA(x.toLowerCase())) ?? medias.find((x) => x.toLowerCase() === 'application/x-www-form-urlencoded') ?? medias.find((x) => x.toLowerCase().startsWith('text/plain'));
  if (pick === undefined) {
    if (medias.length === 0) return null;
    const upload = medias.some((x) => /^multipart\/|^application\/octet-stream|^image\/|^audio\/|^video\//i.test(x));
    return { leftOut: upload ? 'file upload' : `${medias[0]} body` };
  }
  const media = body.content[pick];
  const made = isRecord(media) ? valueOf(media, m) : undefined;
  return { media: pick === '*/*' ? 'application/json' : pick, made: made ?? { kind: 'object', entries: [] } };
}

/** The operation as a request, or why it is left out. */
export function operationRequest(op: Operation, columns: DataColumns, found: OperationFindings): Made1 {
  const m = newMaking();
  const w = new Writer(op.name, columns, found);
  const body = bodyOf(op, m);
  if (body !== null && 'leftOut' in body) return body;

  const pathValues = new Map<string, string>();
  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const p of parametersOf(op)) {
    const name = p.name as string;
    const where = p.in as string;
    const required = p.required === true || where === 'path';
    const hasExample = ownExample(p) !== null || schemaExample(p.schema) !== null;
    if (!required && !hasExample) continue;
    if (where === 'header' && (OWN_HEADERS.has(name.toLowerCase()) || headerVerdict(name, '') === 'invalid')) continue;
    const made = valueOf(p, m);
    if (made === undefined) continue;
    if (where === 'path') pathValues.set(name, w.urlValue(made, name));
    else if (where === 'query') query.push(...w.query(name, made, p));
    else if (where === 'header') headers[name] = w.headerValue(made, name);
    else if (where === 'cookie') cookies.push(`${literalText(name)}=${w.headerValue(made, name)}`);
  }
  // fixed text as a URL writes it (encodeURI keeps / and %XX), {name} as its parameter's value
  let undescribed = false;
  const pieces = `${op.basePath}${op.path}`.split(/(\{[^{}]*\})/);
  const path = pieces
    .map((piece, i) => {
      const value = i % 2 === 1 ? pathValues.get(piece.slice(1, -1)) : undefined;
      if (value !== undefined) return value;
      // {x} inside {{x}} is text; a lone {x} no parameter describes leaves the operation out
      if (i % 2 === 1 && !pieces[i - 1]!.endsWith('{') && !pieces[i + 1]!.startsWith('}')) undescribed = true;
      return literalText(encodePathText(piece));
    })
    .join('');
  if (undescribed) return { leftOut: 'undescribed path parameter' };

  const auth = authParts(op.operation, op.doc, columns, found.auth);
  Object.assign(headers, auth.headers);
  query.push(...auth.query);
  cookies.push(...auth.cookies);
  if (cookies.length > 0) headers.Cookie = cookies.join('; ');
  const responses = isRecord(op.operation.responses) ? op.operation.responses : {};
  const answersJson = Object.entries(responses).some(([code, r]) => /^2|^default$/i.test(code) && isRecord(r) && isRecord(r.content) && Object.keys(r.content).some((x) => JSON_MEDIA(x.toLowerCase())));
  if (answersJson) headers.Accept = 'application/json';

  let text: string | undefined;
  if (body !== null) {
    headers['Content-Type'] = body.media;
    const media = body.media.toLowerCase();
    text = JSON_MEDIA(media) ? w.json(body.made, '') : media === 'application/x-www-form-urlencoded' ? w.form(body.made) : w.headerValue(body.made, 'body');
  }
  if (m.cut) found.cut.push(op.name);
  const fullPath = query.length === 0 ? path : `${path}${path.includes('?') ? '&' : '?'}${query.join('&')}`;
  return { request: { name: op.name, method: op.method, path: fullPath, headers, ...(text === undefined ? {} : { body: text }) } };
}
