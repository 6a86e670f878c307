import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { ErrorCode } from '../../contract/errors.js';

// The browser host's guards. Bound to 127.0.0.1 only; every call and the event socket need the
// per-start token; the Host (and, when a browser sends one, the Origin) must name 127.0.0.1:<port>
// exactly, so a page on another origin, or a DNS name rebound to 127.0.0.1, gets nowhere even if it
// guessed the port.

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ws://127.0.0.1:${port}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** On every response: the page may not be framed, sniffed, or leak its token-bearing URL as a referrer. */
export function securityHeaders(port: number): OutgoingHttpHeaders {
  return {
    'content-security-policy': contentSecurityPolicy(port),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Null when the request may proceed, else why not. */
export function checkHostAndOrigin(headers: IncomingHttpHeaders, port: number): string | null {
  const expected = `127.0.0.1:${port}`;
  if (headers.host !== expected) return `Host must be ${expected}`;
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${expected}`) return `Origin ${origin.slice(0, 100)} is not this host's`;
  return null;
}

/** The HTTP status an error code travels with. */
export function statusForCode(code: ErrorCode): number {
  switch (code) {
    case 'LS_ERR_BAD_REQUEST':
      return 400;
    case 'LS_ERR_UNAUTHORIZED':
      return 401;
    case 'LS_ERR_NOT_LOOPBACK':
    case 'LS_ERR_NEEDS_CONSENT':
      return 403;
    case 'LS_ERR_UNKNOWN_CALL':
    case 'LS_ERR_RUN_NOT_FOUND':
    case 'LS_ERR_SCENARIO_NOT_FOUND':
      return 404;
    case 'LS_ERR_RUN_ACTIVE':
    case 'LS_ERR_SCENARIO_CONFLICT':
      return 409;
    case 'LS_ERR_SCENARIO_INVALID':
      return 422;
    case 'LS_ERR_K6_MISSING':
    case 'LS_ERR_BROWSER_MISSING':
      return 424;
    case 'LS_ERR_SERVER_START':
    case 'LS_ERR_SERVER_CRASHED':
    case 'LS_ERR_TLS': // the target's certificate did not verify: the upstream's fault, as a gateway reports it
      return 502;
    case 'LS_ERR_DB':
    case 'LS_ERR_INTERNAL':
      return 500;
  }
}
