import { join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { packageRoot } from '../servers/launch.js';

// Child processes and worker threads always start from compiled JS in dist/, whether the caller is
// the tsc output, an esbuild bundle (Electron main) or a vitest test importing the TypeScript source.
// So paths are resolved from the package root, found by walking up to loadscope's package.json
// (servers/launch.ts does the walk: servers/ may not import engine/, the other way round is fine).
export { packageRoot };

/** Absolute path of a compiled file, given its source path relative to the root ('servers/main.ts'). */
export function distPath(sourceRelative: string): string {
  return join(packageRoot(), 'dist', sourceRelative.replace(/\.tsx?$/, '.js'));
}

export function rootPath(relative: string): string {
  return join(packageRoot(), relative);
}

/** A worker thread on a compiled file ('engine/driver/driver-worker.ts' -> dist/...js). */
export function startDistWorker(sourceRelative: string, options: Omit<WorkerOptions, 'execArgv'> = {}, file = distPath(sourceRelative)): Worker {
  // a worker inherits execArgv; --input-type (from a `node -e` host) would make loading its file fail
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  return new Worker(file, { ...options, execArgv });
}
