import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Architecture, ArchitectureOptions } from '../contract/servers.js';

// The one thing the engine imports from servers/: how to start a bundled architecture. Servers always
// run from compiled JS in dist/, whether this file is loaded from dist/servers/ (tsc output), from an
// esbuild bundle, or as TypeScript source by vitest, so the path is resolved from the package root.

export interface LaunchSpec {
  /** Absolute path of the launcher script (dist/servers/main.js), run with `node`. */
  file: string;
  args: string[];
}

let cachedRoot: string | undefined;

/** The folder of loadscope's package.json (engine/paths.ts re-exports it for the other layers). */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown };
      if (pkg.name === 'loadscope') return (cachedRoot = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`loadscope package root not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** Absolute path of a compiled servers/ file, by its base name ('main' -> dist/servers/main.js). */
export function serverDistFile(name: string): string {
  return join(packageRoot(), 'dist', 'servers', `${name}.js`);
}

export interface LaunchListen {
  port?: number;
  host?: string;
}

/**
 * `node <file> <architecture> --options '<json>' [--port N] [--host H]`. Options are passed as given
 * (partial options get the schema's defaults in the server); the server parses them again, so a bad
 * value fails there with exit code 2 and a one-line reason on stderr.
 */
export function launchSpec<A extends Architecture>(
  architecture: A,
  options: Partial<ArchitectureOptions[A]> = {},
  listen: LaunchListen = {},
): LaunchSpec {
  const args: string[] = [architecture, '--options', JSON.stringify(options)];
  if (listen.port !== undefined) args.push('--port', String(listen.port));
  if (listen.host !== undefined) args.push('--host', listen.host);
  return { file: serverDistFile('main'), args };
}
