import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative } from 'node:path';
import type { Protocol } from 'electron';
import { APP_SCHEME, CONTENT_SECURITY_POLICY } from './security.js';

// The page is served from loadscope://app/ (not file://), so 'self' in the CSP means exactly the
// built renderer folder, and every response carries the CSP header. A path that leaves the folder
// (.., encoded or not, or a symlink pointing out) is refused; directories are never listed.

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

/** Before app ready: the scheme behaves like https (standard, secure, fetch-able). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function answer(status: number, body: string | Buffer, contentType: string): Response {
  return new Response(typeof body === 'string' ? body : new Uint8Array(body), {
    status,
    headers: { 'content-type': contentType, 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' },
  });
}

export async function serveRendererFile(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  if (url.host !== 'app') return answer(404, 'not found', 'text/plain');
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return answer(400, 'bad path', 'text/plain');
  }
  const segments = path.split('/').filter((s) => s !== '');
  if (path.includes('\0') || path.includes('\\') || segments.some((s) => s === '..' || s === '.')) return answer(403, 'refused', 'text/plain');
  const wantsIndex = segments.length === 0 || extname(segments[segments.length - 1]) === '';
  try {
    const root = await realpath(rendererDir);
    const real = await realpath(wantsIndex ? join(root, 'index.html') : join(root, ...segments));
    if (!inside(root, real)) return answer(403, 'refused', 'text/plain');
    if (!(await stat(real)).isFile()) return answer(404, 'not found', 'text/plain');
    return answer(200, await readFile(real), MIME[extname(real).toLowerCase()] ?? 'application/octet-stream');
  } catch {
    return answer(404, wantsIndex ? 'The Loadscope renderer is not built: run `npm run build`.' : 'not found', 'text/plain');
  }
}

/** After app ready. */
export function handleAppScheme(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => serveRendererFile(rendererDir, request.url));
}
