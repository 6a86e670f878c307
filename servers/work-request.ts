import type { IncomingHttpHeaders } from 'node:http';
import { API_PREFIX, parseApiRequest } from './api-request.js';
import type { Work } from './work.js';

// Turns a request line into Work, or into a 4xx with a one-line reason. Never throws.
//   /fib?n=30 | /fib?min=1&max=30            (0 <= n <= MAX_FIB_N; n drawn per request from the range)
//   /sleep?ms=40 | /sleep?min=1000&max=3000  (+ block=1: busy the thread instead of a timer)
//   /static?size=4096                        (exactly size bytes, <= MAX_STATIC_SIZE; default 4096)
//   /image[?image=<index>]                   (one of IMAGE_COUNT generated images; default random)
//   /leak?kb=64                              (keeps kb KB for good, <= MAX_LEAK_KB, up to a bound: workloads/leak.ts)
//   /api/...                                 (login, items, me, echo: see api-request.ts)

export const MAX_FIB_N = 45;
export const MAX_SLEEP_MS = 120_000;
export const MAX_STATIC_SIZE = 64 * 1024 * 1024;
export const IMAGE_COUNT = 8;
export const MAX_LEAK_KB = 1024;

export interface RequestError {
  status: 400 | 404 | 405 | 413;
  reason: string;
}

type Parsed = { ok: true; work: Work } | { ok: false; error: RequestError };

const bad = (reason: string): Parsed => ({ ok: false, error: { status: 400, reason } });

function intParam(params: URLSearchParams, name: string, min: number, max: number): number | string | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) return `${name} must be a whole number, got '${raw.slice(0, 40)}'`;
  const value = Number(raw);
  if (value < min || value > max) return `${name} must be between ${min} and ${max}, got ${raw}`;
  return value;
}

/** n or ms: either the exact parameter, or min and max (inclusive) with a uniform draw per request. */
function amount(params: URLSearchParams, name: string, limit: number): number | string {
  const exact = intParam(params, name, 0, limit);
  const min = intParam(params, 'min', 0, limit);
  const max = intParam(params, 'max', 0, limit);
  for (const v of [exact, min, max]) if (typeof v === 'string') return v;
  if (typeof exact === 'number') {
    if (min !== undefined || max !== undefined) return `give ${name}, or min and max, not both`;
    return exact;
  }
  if (typeof min !== 'number' || typeof max !== 'number') return `give ${name}, or min and max`;
  if (min > max) return `min (${min}) must not exceed max (${max})`;
  return min + Math.floor(Math.random() * (max - min + 1));
}

function unknownParam(params: URLSearchParams, allowed: readonly string[]): string | undefined {
  for (const key of params.keys()) if (!allowed.includes(key)) return `unknown parameter '${key.slice(0, 40)}' (allowed: ${allowed.join(', ')})`;
  return undefined;
}

/** What the API needs beyond the request line (the other workloads read neither). */
export interface RequestContent {
  headers: IncomingHttpHeaders;
  /** the body as text, '' when none */
  body: string;
}

const NO_CONTENT: RequestContent = { headers: {}, body: '' };

export function parseWorkRequest(method: string | undefined, rawUrl: string | undefined, content: RequestContent = NO_CONTENT): Parsed {
  let url: URL;
  try {
    url = new URL(rawUrl ?? '/', 'http://localhost');
  } catch {
    return bad('malformed URL');
  }
  const path = url.pathname;
  const params = url.searchParams;
  if (path.startsWith(API_PREFIX)) {
    const api = parseApiRequest(method, url, content.headers, content.body);
    return api.ok ? { ok: true, work: { kind: 'api', call: api.call } } : api;
  }
  const known = path === '/fib' || path === '/sleep' || path === '/static' || path === '/image' || path === '/leak';
  if (!known) return { ok: false, error: { status: 404, reason: `unknown path ${path.slice(0, 80)} (try /fib, /sleep, /static, /image, /leak, /api/login)` } };
  if (method !== 'GET' && method !== 'HEAD') return { ok: false, error: { status: 405, reason: `${method ?? '?'} not allowed: use GET` } };

  switch (path) {
    case '/fib': {
      const unknown = unknownParam(params, ['n', 'min', 'max']);
      if (unknown) return bad(unknown);
      const n = amount(params, 'n', MAX_FIB_N);
      return typeof n === 'string' ? bad(n) : { ok: true, work: { kind: 'fib', n } };
    }
    case '/sleep': {
      const unknown = unknownParam(params, ['ms', 'min', 'max', 'block']);
      if (unknown) return bad(unknown);
      const ms = amount(params, 'ms', MAX_SLEEP_MS);
      if (typeof ms === 'string') return bad(ms);
      const block = params.get('block');
      if (block !== null && !['0', '1', 'true', 'false'].includes(block)) return bad(`block must be 0 or 1, got '${block.slice(0, 40)}'`);
      return { ok: true, work: { kind: 'sleep', ms, block: block === '1' || block === 'true' } };
    }
    case '/static': {
      const unknown = unknownParam(params, ['size']);
      if (unknown) return bad(unknown);
      const size = intParam(params, 'size', 0, MAX_STATIC_SIZE);
      if (typeof size === 'string') return bad(size);
      return { ok: true, work: { kind: 'static', size: size ?? 4096 } };
    }
    case '/leak': {
      const unknown = unknownParam(params, ['kb']);
      if (unknown) return bad(unknown);
      const kb = intParam(params, 'kb', 0, MAX_LEAK_KB);
      if (typeof kb === 'string') return bad(kb);
      return { ok: true, work: { kind: 'leak', kb: kb ?? 64 } };
    }
    default: {
      const unknown = unknownParam(params, ['image']);
      if (unknown) return bad(unknown);
      const index = intParam(params, 'image', 0, IMAGE_COUNT - 1);
      if (typeof index === 'string') return bad(index);
      return { ok: true, work: { kind: 'image', index: index ?? Math.floor(Math.random() * IMAGE_COUNT) } };
    }
  }
}
