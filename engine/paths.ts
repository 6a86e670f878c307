import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Child processes and worker threads always start from compiled JS in dist/, whether the caller is
// the tsc output, an esbuild bundle (Electron main) or a vitest test importing the TypeScript source.
// So paths are resolved from the package root, found by walking up to loadscope's package.json.
let cachedRoot: string | undefined;

export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'loadscope') return (cachedRoot = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('loadscope package root not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** Absolute path of a compiled file, given its source path relative to the root ('servers/main.ts'). */
export function distPath(sourceRelative: string): string {
  return join(packageRoot(), 'dist', sourceRelative.replace(/\.tsx?$/, '.js'));
}

export function rootPath(relative: string): string {
  return join(packageRoot(), relative);
}
