import { statSync } from 'node:fs';
import { join } from 'node:path';
import { distPath, packageRoot } from '../paths.js';

// Which file the driver's worker starts from: the one-file bundle (scripts/build-cli.mjs) when it is
// at least as new as the tsc output of the worker's entry, else that output. One file is ~30-40 ms
// less CPU at every run's start than ~90 modules resolved and read one by one (issue 42); the rule
// is bin/loadscope.js's for the CLI's chunks, so a bare `tsc` rebuild never runs a stale worker.
// LOADSCOPE_DRIVER_WORKER_FILE=tsc starts the tsc output anyway: a measuring aid for an A/B of one build.

/** The path the driver's worker thread starts from. */
export function driverWorkerFile(env: string | undefined = process.env.LOADSCOPE_DRIVER_WORKER_FILE): string {
  const tsc = distPath('engine/driver/driver-worker.ts');
  if (env === 'tsc') return tsc;
  return freshBundleOr(join(packageRoot(), 'dist', 'worker-bundle', 'driver-worker.js'), tsc);
}

/** `bundle` when it exists and is not older than `tsc` (or tsc is missing), else `tsc`. */
function freshBundleOr(bundle: string, tsc: string): string {
  const built = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs;
  const compiled = statSync(tsc, { throwIfNoEntry: false })?.mtimeMs;
  return built !== undefined && (compiled === undefined || built >= compiled) ? bundle : tsc;
}
