import { basename } from 'node:path';
import pc from 'postman-collection';
import { LoadscopeError } from '../../contract/errors.js';
import { literalText } from '../../contract/variables.js';
import { DataColumns, dataPlaceholder } from './data-columns.js';
import { describedScenario, type DescribedRequest } from './described-scenario.js';
import { givenBaseUrl, listed } from './described-url.js';
import { parseDescription, readDescriptionFile } from './description-text.js';
import { isMethod } from './captured.js';
import type { ImportResult } from './imported-scenario.js';
import { badImport, shown } from './limits.js';
import { pairsTemplate } from './postman-literal-credentials.js';
import { postmanBody, postmanHeaders, type Credentials } from './postman-request.js';
import { PostmanVariables } from './postman-template.js';
import { encodeComponent, encodePathText } from './url-encode.js';

// `loadscope import-postman` and the UI's import of a Postman collection (v2.1, or v2.0 which the SDK
// reads alike): the postman-collection package walks its folders, inherits auth and parses each URL;
// each request becomes a template against the collection's one host (the most frequent, or
// --base-url), its {{variables}} as data columns (postman-template.ts).

export interface PostmanOptions {
  /** the origin to send to instead of the collection's (its requests keep their paths) */
  baseUrl?: string | undefined;
}

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/** The collection, checked to be one the SDK reads as v2. */
function collectionOf(json: Obj, name: string): pc.Collection {
  const info = isRecord(json.info) ? json.info : undefined;
  const schema = text(info?.schema);
  if (info === undefined || !/collection\/v2\.[01]\.\d/.test(schema)) {
    throw badImport(`${shown(name)} is not a Postman collection v2.1: ${info === undefined ? 'it has no info' : `info.schema is ${shown(schema)}`} (Postman: Export, Collection v2.1)`);
  }
  if (!Array.isArray(json.item)) throw badImport(`${shown(name)} is not a Postman collection v2.1: item is not a list`);
  return new pc.Collection(json);
}

/** Every request of a folder and its folders, in order (the SDK's own walk is missing from its types). */
function walk(group: pc.ItemGroup, visit: (item: pc.Item) => void, folder: (group: pc.ItemGroup) => void): void {
  for (const child of group.items.all() as unknown[]) {
    if (pc.ItemGroup.isItemGroup(child)) {
      const inner = child as pc.ItemGroup;
      folder(inner);
      walk(inner, visit, folder);
    } else if (pc.Item.isItem(child)) visit(child as pc.Item);
  }
}

/** Where a request goes: the origin and the path before its own (a {{baseUrl}} of http://h/v2 gives /v2). */
function targetOf(url: pc.Url, vars: PostmanVariables): { origin: string; basePath: string } | null {
  const host = vars.resolve((url.host ?? []).join('.'));
  const port = url.port === undefined ? '' : vars.resolve(text(url.port));
  if (host === null || port === null || host === '') return null;
  const full = host.includes('://') ? `${host}${port === '' ? '' : `:${port}`}` : `${url.protocol || 'http'}://${host}${port === '' ? '' : `:${port}`}`;
  if (!URL.canParse(full)) return null;
  const parsed = new URL(full);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return { origin: parsed.origin, basePath: parsed.pathname.replace(/\/+$/, '') };
}

interface Found {
  leftOut: Map<string, number>;
  credentials: Credentials;
  scripts: number;
}

/** The request's path and query as a template: :name path variables and {{variables}} as columns. */
function pathOf(url: pc.Url, basePath: string, vars: PostmanVariables, credentials: Credentials): string {
  const pathVariables = new Map<string, string>();
  for (const v of (url.variables?.all() ?? []) as unknown[]) if (isRecord(v) && typeof v.key === 'string') pathVariables.set(v.key, text(v.value));
  const segments = (url.path ?? []).map((segment) => {
    const s = text(segment);
    const value = s.startsWith(':') ? pathVariables.get(s.slice(1)) : undefined;
    if (value !== undefined) {
      // a path variable's value may itself be a {{variable}}
      if (PostmanVariables.uses(value)) return vars.template(value, encodePathText);
      const column = vars.columns.example(s.slice(1), value);
      return column === null ? literalText(encodeComponent(value)) : dataPlaceholder(column);
    }
    return vars.template(s, encodePathText);
  });
  const pairs = ((url.query?.all() ?? []) as unknown[])
    .filter((q): q is Obj => isRecord(q) && q.disabled !== true && typeof q.key === 'string')
    .map((q) => ({ key: text(q.key), value: q.value === null || q.value === undefined ? null : text(q.value) }));
  const path = `${basePath}/${segments.join('/')}`.replace(/^\/\//, '/');
  if (pairs.length === 0) return path;
  return `${path}?${pairsTemplate(pairs, { prefix: 'query', what: 'the query' }, vars, (column, what) => credentials.columns.set(column, what), encodePathText, (s) => s)}`;
}

function requestOf(item: pc.Item, basePath: string, vars: PostmanVariables, found: Found): DescribedRequest | string {
  const r = item.request;
  const method = text(r.method).toUpperCase() || 'GET';
  if (!isMethod(method)) return `${method} method`;
  const body = postmanBody(r.body, vars, found.credentials);
  if (typeof body === 'string') return body;
  const headers = postmanHeaders(r, item.getAuth(), vars, found.credentials);
  if (body !== undefined && body.contentType !== undefined && !Object.keys(headers.headers).some((h) => h.toLowerCase() === 'content-type')) headers.headers['Content-Type'] = body.contentType;
  let path = pathOf(r.url, basePath, vars, found.credentials);
  if (headers.query.length > 0) path += `${path.includes('?') ? '&' : '?'}${headers.query.join('&')}`;
  return { name: text(item.name), method, path, headers: headers.headers, ...(body === undefined ? {} : { body: body.text }) };
}

/** The scenario of a collection's text (`name`: the file's name, for notes and errors). */
export function postmanToScenario(json: string, name: string, opts: PostmanOptions = {}): ImportResult {
  const doc = parseDescription(json, name, false);
  const given = opts.baseUrl === undefined ? undefined : givenBaseUrl(opts.baseUrl, false);
  try {
    const collection = collectionOf(doc, name);
    const values = new Map<string, string>();
    for (const v of collection.variables.all() as unknown[]) if (isRecord(v) && typeof v.key === 'string' && v.disabled !== true) values.set(v.key, text(v.value));
    const vars = new PostmanVariables(values, new DataColumns());
    const found: Found = { leftOut: new Map(), credentials: { columns: new Map(), unsupported: new Set() }, scripts: 0 };
    const leave = (why: string) => found.leftOut.set(why, (found.leftOut.get(why) ?? 0) + 1);
    // events are read by name: the SDK's types give folders none
    const scriptsOf = (p: object): number => {
      const events: unknown = Reflect.get(p, 'events');
      return isRecord(events) && typeof events.count === 'function' ? Number(events.count()) : 0;
    };
    found.scripts += scriptsOf(collection);

    // first where each request goes, so the one host is known before any request is made
    const items: { item: pc.Item; target: { origin: string; basePath: string } | null }[] = [];
    walk(collection, (item) => items.push({ item, target: targetOf(item.request.url, vars) }), (group) => (found.scripts += scriptsOf(group)));
    const counts = new Map<string, number>();
    for (const { target } of items) if (target !== null) counts.set(target.origin, (counts.get(target.origin) ?? 0) + 1);
    const main = given?.origin ?? [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (main === undefined) {
      throw badImport(`${shown(name)} has no request with a host it can resolve (${items.length} request(s); their {{variables}} name none): give --base-url, e.g. http://127.0.0.1:8080`);
    }

    const requests: DescribedRequest[] = [];
    let otherHosts = 0;
    for (const { item, target } of items) {
      found.scripts += scriptsOf(item);
      if (target === null && given === undefined) leave('host not resolved');
      else if (given === undefined && target!.origin !== main) otherHosts++;
      else {
        const made = requestOf(item, target?.basePath ?? '', vars, found);
        if (typeof made === 'string') leave(made);
        else requests.push(made);
      }
    }
    const reasons = [...found.leftOut].map(([why, n]) => `${why} (${n})`).join(', ');
    if (requests.length === 0) throw badImport(`${shown(name)} has no request a scenario can send${reasons === '' ? '' : ` (${reasons})`}`);

    const notes: string[] = [];
    if (found.leftOut.size > 0) notes.push(`left out ${[...found.leftOut.values()].reduce((a, b) => a + b, 0)} request(s) it cannot send: ${reasons}`);
    if (otherHosts > 0) notes.push(`left out ${otherHosts} request(s) to hosts other than ${new URL(main).host}; --base-url sends every request to one host`);
    if (vars.undefinedNames.size > 0) notes.push(`fill in ${vars.undefinedNames.size} variable(s) the collection does not define, each a column of the data file: ${listed([...vars.undefinedNames])}`);
    if (vars.sampled.size > 0) notes.push(`dynamic variables without a twin here took one sample value each, kept in the data file: ${listed([...vars.sampled])}`);
    if (found.scripts > 0) notes.push(`${found.scripts} script(s) (pre-request, test) are not run: values they would set are not set`);
    if (found.credentials.unsupported.size > 0) notes.push(`left out auth it cannot send: ${listed([...found.credentials.unsupported])}`);
    return describedScenario({
      kind: 'postman',
      title: text(collection.name),
      source: basename(name),
      origin: new URL(main),
      requests,
      columns: vars.columns,
      credentials: found.credentials.columns,
      notes,
    });
  } catch (err) {
    if (err instanceof LoadscopeError) throw err;
    // the SDK met a shape it does not read (an item that is a number...): one line, not its stack
    throw badImport(`${shown(name)} cannot be read as a Postman collection (${err instanceof Error ? err.name : 'error'})`);
  }
}

/** Reads a collection file (at most MAX_DESCRIPTION_BYTES, a regular file) and makes its scenario. */
export function importPostmanFile(path: string, opts: PostmanOptions = {}): ImportResult {
  const text = readDescriptionFile(path, 'a Postman collection');
  return postmanToScenario(text, basename(path), opts);
}
