import { realpath, readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';

// Serves the built renderer (vite's dist/renderer: index.html + assets/). Files only: a directory
// is never listed, a path that leaves the folder (.., encoded or not, or a symlink pointing out) is
// refused, and a path without an extension gets index.html (the UI routes on the client).

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export type StaticResult =
  | { kind: 'file'; body: Buffer; contentType: string; immutable: boolean }
  | { kind: 'refused'; reason: string }
  | { kind: 'missing' }
  | { kind: 'not-built' };

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Resolves a URL path ('/assets/index-abc.js') to a file under root, or says why not. */
export async function readStatic(root: string, urlPath: string): Promise<StaticResult> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: 'refused', reason: 'malformed path' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'refused', reason: 'malformed path' };
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return { kind: 'refused', reason: 'path leaves the renderer folder' };

  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { kind: 'not-built' };
  }
  const wantsIndex = segments.length === 0 || extname(segments[segments.length - 1]) === '';
  const target = wantsIndex ? join(realRoot, 'index.html') : join(realRoot, ...segments);
  if (!inside(realRoot, target)) return { kind: 'refused', reason: 'path leaves the renderer folder' };

  let real: string;
  try {
    real = await realpath(target);
  } catch {
    return wantsIndex ? { kind: 'not-built' } : { kind: 'missing' };
  }
  if (!inside(realRoot, real)) return { kind: 'refused', reason: 'path leaves the renderer folder' };
  const info = await stat(real);
  if (!info.isFile()) return { kind: 'missing' };
  return {
    kind: 'file',
    body: await readFile(real),
    contentType: MIME[extname(real).toLowerCase()] ?? 'application/octet-stream',
    // vite names assets by content hash
    immutable: real.startsWith(join(realRoot, 'assets') + sep),
  };
}
