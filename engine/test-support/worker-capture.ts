import type { Worker } from 'node:worker_threads';
import type * as Paths from '../paths.js';

// The worker threads the engine starts (engine/paths.ts's startDistWorker), handed to a test that
// kills one mid-run (faults.test.ts: the driver's worker dying). A test file wires it with
//   vi.mock('../paths.js', async (original) => (await import('../test-support/worker-capture.js')).capturingPaths(await original<typeof import('../paths.js')>()));
// so production code carries no hook for it.

let listener: ((worker: Worker) => void) | null = null;

/** Hands each worker thread started from now on to `onStarted` (null: no longer). */
export function onWorkerStarted(onStarted: ((worker: Worker) => void) | null): void {
  listener = onStarted;
}

/** engine/paths.ts with startDistWorker telling onWorkerStarted's listener of each worker it starts. */
export function capturingPaths(paths: typeof Paths): typeof Paths {
  return {
    ...paths,
    startDistWorker: (...args) => {
      const worker = paths.startDistWorker(...args);
      listener?.(worker);
      return worker;
    },
  };
}
