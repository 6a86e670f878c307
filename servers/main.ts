import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { installLifecycle } from './lifecycle.js';
import { OptionsError, parseLaunchArgs, type Launch } from './options.js';
import { IMAGE_DIR_ENV } from './workloads/image-dir.js';

// The one launcher for every bundled architecture (see launch.ts for how it is started):
//   node dist/servers/main.js <architecture> [--options '<json>'] [--port N] [--host 127.0.0.1]
// Bad arguments: exit 2 with a one-line reason on stderr.

/** Does this architecture run work on the top process's main thread (so it needs a watchdog)? */
function workOnMainThread(launch: Launch): boolean {
  if (launch.architecture === 'single') return true;
  if (launch.architecture === 'offload') {
    const o = launch.options as Launch<'offload'>['options'];
    return o.workIn === 'http' && o.httpWorkers === 0;
  }
  return false;
}

async function startArchitecture(launch: Launch): Promise<void> {
  switch (launch.architecture) {
    case 'single':
      return (await import('./single.js')).start(launch as Launch<'single'>);
    case 'cluster':
      return (await import('./cluster.js')).start(launch as Launch<'cluster'>);
    case 'autoscale':
      return (await import('./autoscale.js')).start(launch as Launch<'autoscale'>);
    case 'offload':
      return (await import('./offload.js')).start(launch as Launch<'offload'>);
    case 'thread-per-request':
      return (await import('./thread-per-request.js')).start(launch as Launch<'thread-per-request'>);
    case 'thread-pool':
      return (await import('./thread-pool.js')).start(launch as Launch<'thread-pool'>);
  }
}

async function main(): Promise<void> {
  let launch: Launch;
  try {
    launch = parseLaunchArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof OptionsError)) throw err;
    process.stderr.write(`loadscope-server: ${err.message}\n`);
    process.exit(2);
  }
  // The image folder belongs to this (top) process; every child inherits its path.
  const dir = join(tmpdir(), `loadscope-images-${process.pid}`);
  process.env[IMAGE_DIR_ENV] = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  installLifecycle({ role: 'top', watchdog: workOnMainThread(launch), ownedDir: dir });
  const { generateImageSources } = await import('./workloads/image-source.js');
  generateImageSources(dir);
  await startArchitecture(launch);
}

main().catch((err: unknown) => {
  process.stderr.write(`loadscope-server: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
