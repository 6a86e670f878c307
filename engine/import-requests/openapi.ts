import { basename } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { formatPath } from '../scenario/param-path.js';
import { DataColumns } from './data-columns.js';
import { describedScenario, type DescribedRequest } from './described-scenario.js';
import { readDescriptionFile, parseDescription } from './description-text.js';
import { isMethod } from './captured.js';
import type { ImportResult } from './imported-scenario.js';
import { badImport, MAX_EXAMPLE_DEPTH, MAX_EXAMPLE_VALUES, shown } from './limits.js';
import { newAuthFindings, unsupportedNote } from './openapi-auth.js';
import { operationRequest, type OperationFindings } from './openapi-request.js';
import { givenBaseUrl, listed, serverUrl } from './described-url.js';

// `loadscope import-openapi` and the UI's import of an OpenAPI 3.0 or 3.1 description (JSON or
// YAML): swagger-parser dereferences and validates it (external $refs are never fetched or read: a
// description must not reach the network or the disk), then each operation becomes a request
// (openapi-request.ts) against the description's server, or --base-url.

export interface OpenApiOptions {
  /** the server to send to instead of the description's servers[0] (its path prefixes every operation) */
  baseUrl?: string | undefined;
}

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const OPERATION_KEYS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The parser's first problem as one line: where (a JSON path) and what. */
function firstProblem(err: unknown): string {
  const details = (err as { details?: unknown }).details;
  const first: unknown = Array.isArray(details) ? details[0] : undefined;
  if (isRecord(first) && typeof first.instancePath === 'string' && typeof first.message === 'string') {
    const keys = first.instancePath.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~')).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    return `${keys.length === 0 ? '(the document)' : formatPath(keys)}: ${first.message}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? '').slice(0, 300);
}

/** Dereferenced and validated, or one line saying why not. */
async function validated(doc: Obj, name: string): Promise<Obj> {
  if (typeof doc.swagger === 'string' || typeof doc.swagger === 'number') {
    throw badImport(`${shown(name)} is Swagger ${String(doc.swagger)}; OpenAPI 3.0 and 3.1 descriptions are read (convert it first, e.g. with swagger2openapi)`);
  }
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.')) {
    throw badImport(`${shown(name)} is not an OpenAPI 3 description: ${doc.openapi === undefined ? 'it has no openapi field' : `its openapi is ${shown(String(doc.openapi), 20)}`}`);
  }
  try {
    // circular: a schema that refers to itself becomes a cycle of objects (values are cut at a depth)
    const api: unknown = await new SwaggerParser().validate(doc as never, { resolve: { external: false }, dereference: { circular: true } });
    if (!isRecord(api)) throw new Error('the parser returned no document');
    return api;
  } catch (err) {
    throw badImport(`${shown(name)} is not a valid OpenAPI description: ${firstProblem(err)}`);
  }
}

/** An operation-level or path-level `servers` that sends elsewhere than the description's server. */
function elsewhere(servers: unknown, main: string): boolean {
  if (!Array.isArray(servers) || servers.length === 0) return false;
  const first: unknown = servers[0];
  const url = serverUrl(isRecord(first) ? first : {});
  return url === null || url.href.replace(/\/+$/, '') !== main;
}

/** The scenario of a description's text (`name`: the file's name, for notes and errors). */
export async function openApiToScenario(text: string, name: string, opts: OpenApiOptions = {}): Promise<ImportResult> {
  const api = await validated(parseDescription(text, name, true), name);
  const servers = Array.isArray(api.servers) ? api.servers : [];
  const base = opts.baseUrl !== undefined ? givenBaseUrl(opts.baseUrl, true) : serverUrl(isRecord(servers[0]) ? servers[0] : {});
  if (base === null) throw badImport(`${shown(name)} names no absolute server URL (servers[0].url): give --base-url, e.g. http://127.0.0.1:8080`);
  const main = base.href.replace(/\/+$/, '');
  const basePath = base.pathname.replace(/\/+$/, '');

  const columns = new DataColumns();
  const found: OperationFindings = { typed: [], cut: [], forms: 0, auth: newAuthFindings() };
  const requests: DescribedRequest[] = [];
  const leftOut = new Map<string, number>();
  const leave = (why: string) => leftOut.set(why, (leftOut.get(why) ?? 0) + 1);
  let callbacks = 0;
  const paths = isRecord(api.paths) ? api.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const key of OPERATION_KEYS) {
      const operation = item[key];
      if (!isRecord(operation)) continue;
      const method = key.toUpperCase();
      if (isRecord(operation.callbacks)) callbacks += Object.keys(operation.callbacks).length;
      if (!isMethod(method)) leave(`${method} method`);
      else if (opts.baseUrl === undefined && (elsewhere(operation.servers, main) || (operation.servers === undefined && elsewhere(item.servers, main)))) leave('server of its own');
      else {
        const name = typeof operation.operationId === 'string' && operation.operationId.trim() !== '' ? operation.operationId.trim() : `${method} ${path}`;
        const pathParameters = Array.isArray(item.parameters) ? item.parameters : [];
        const made = operationRequest({ name, method, path, basePath, operation, pathParameters, doc: api }, columns, found);
        if ('leftOut' in made) leave(made.leftOut);
        else requests.push(made.request);
      }
    }
  }
  const reasons = [...leftOut].map(([why, n]) => `${why} (${n})`).join(', ');
  if (requests.length === 0) throw badImport(`${shown(name)} has no operation a scenario can send${reasons === '' ? '' : ` (${reasons})`}`);

  const notes: string[] = [];
  if (leftOut.size > 0) notes.push(`left out ${[...leftOut.values()].reduce((a, b) => a + b, 0)} operation(s) it cannot send: ${reasons}`);
  if (callbacks > 0) notes.push(`left out ${callbacks} callback(s): requests the server makes, not the client`);
  const webhooks = isRecord(api.webhooks) ? Object.keys(api.webhooks).length : 0;
  if (webhooks > 0) notes.push(`left out ${webhooks} webhook(s): requests the server makes, not the client`);
  if (found.typed.length > 0) notes.push(`made ${found.typed.length} value(s) from the schema's type, having no example, written in the requests: ${listed(found.typed)}`);
  if (found.cut.length > 0) notes.push(`cut the values of ${found.cut.length} operation(s) at ${MAX_EXAMPLE_DEPTH} levels or ${MAX_EXAMPLE_VALUES} values (a schema that refers to itself, or a wide one): ${listed(found.cut)}`);
  if (found.forms > 0) notes.push('form bodies read their fields URL-encoded from the data file');
  notes.push(...unsupportedNote(found.auth));
  const info = isRecord(api.info) ? api.info : {};
  return describedScenario({
    kind: 'openapi',
    title: typeof info.title === 'string' ? info.title : '',
    source: basename(name),
    origin: new URL(base.origin),
    requests,
    columns,
    credentials: found.auth.columns,
    notes,
  });
}

/** Reads a description file (at most MAX_DESCRIPTION_BYTES, a regular file) and makes its scenario. */
export async function importOpenApiFile(path: string, opts: OpenApiOptions = {}): Promise<ImportResult> {
  const text = readDescriptionFile(path, 'an API description');
  return openApiToScenario(text, basename(path), opts);
}
