import type { IncomingHttpHeaders } from 'node:http';
import type { ApiCall } from './work.js';

// The bundled API's request side (what a journey drives): routes, the body and the headers a call
// needs, read by the front into plain data (ApiCall) so the call can run wherever the architecture
// runs work. Tokens are checked where the call runs (workloads/api.ts), so a 401 is timed work too.
//   POST /api/login      {"user": "...", "password": "secret"}  -> {token}   (any user; password "secret")
//   GET  /api/items/:id  Authorization: Bearer <token>          -> {id, name, price, owner}   (1 <= id <= API_ITEM_COUNT)
//   GET  /api/me         Authorization: Bearer <token>          -> {user}
//   POST /api/echo       any JSON body                          -> {method, path (with the query), body, headers} (ECHOED_HEADERS and x-*)

export const API_PREFIX = '/api/';
export const API_ITEM_COUNT = 1000;
/** a request body larger than this is refused (413) */
export const MAX_API_BODY = 64 * 1024;
export const ECHOED_HEADERS = ['authorization', 'content-type', 'user-agent', 'accept'] as const;

export interface ApiError {
  status: 400 | 404 | 405;
  reason: string;
}

type ParsedApi = { ok: true; call: ApiCall } | { ok: false; error: ApiError };

const bad = (reason: string): ParsedApi => ({ ok: false, error: { status: 400, reason } });
const onlyMethod = (method: string | undefined, allowed: readonly string[]): ParsedApi | null =>
  method !== undefined && allowed.includes(method) ? null : { ok: false, error: { status: 405, reason: `${method ?? '?'} not allowed: use ${allowed[0]}` } };

function bearer(headers: IncomingHttpHeaders): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? '');
  return match ? match[1]! : null;
}

function jsonBody(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}

function echoedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !(ECHOED_HEADERS.includes(name as (typeof ECHOED_HEADERS)[number]) || name.startsWith('x-'))) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** `url`'s path starts with API_PREFIX; `body` is the request body as text ('' when none). */
export function parseApiRequest(method: string | undefined, url: URL, headers: IncomingHttpHeaders, body: string): ParsedApi {
  const path = url.pathname;
  const route = path.slice(API_PREFIX.length);
  if (route === 'login') {
    const wrong = onlyMethod(method, ['POST']);
    if (wrong) return wrong;
    const parsed = jsonBody(body);
    const value = parsed.ok ? parsed.value : undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('login needs a JSON body {"user": "...", "password": "..."}');
    const { user, password } = value as Record<string, unknown>;
    if (typeof user !== 'string' || typeof password !== 'string') return bad('login needs "user" and "password" strings');
    if (!/^[\w.@-]{1,64}$/.test(user)) return bad('user must be 1 to 64 letters, digits, or . _ @ -');
    return { ok: true, call: { op: 'login', user, password } };
  }
  if (route === 'me') return onlyMethod(method, ['GET', 'HEAD']) ?? { ok: true, call: { op: 'me', token: bearer(headers) } };
  if (route === 'echo') {
    const wrong = onlyMethod(method, ['POST', 'PUT', 'PATCH']);
    if (wrong) return wrong;
    const parsed = body === '' ? { ok: true as const, value: null } : jsonBody(body);
    if (!parsed.ok) return bad('echo needs a JSON body (or none)');
    return { ok: true, call: { op: 'echo', method: method ?? 'POST', path: `${path}${url.search}`, body: parsed.value, headers: echoedHeaders(headers) } };
  }
  const item = /^items\/([^/]*)$/.exec(route);
  if (item) {
    const wrong = onlyMethod(method, ['GET', 'HEAD']);
    if (wrong) return wrong;
    const id = item[1]!;
    if (!/^\d{1,9}$/.test(id) || Number(id) < 1 || Number(id) > API_ITEM_COUNT) {
      return { ok: false, error: { status: 404, reason: `no item '${id.slice(0, 40)}' (items are 1 to ${API_ITEM_COUNT})` } };
    }
    return { ok: true, call: { op: 'item', id: Number(id), token: bearer(headers) } };
  }
  return { ok: false, error: { status: 404, reason: `unknown path ${path.slice(0, 80)} (try /api/login, /api/items/1, /api/me, /api/echo)` } };
}
