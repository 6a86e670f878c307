import { announceReady } from './announce.js';
import { Cooperator } from './cooperator.js';
import { createFront, listen } from './http-front.js';
import { onShutdown } from './lifecycle.js';
import type { Launch } from './options.js';

// autoscale (seed 000's proposal): the Master accepts HTTP and hands each request to a pool of forked
// worker processes managed by the Cooperator (cooperator.ts), which grows the pool when all workers
// are busy (up to max) and retires workers idle for idleMs (down to min). The Master does no work.

export async function start(launch: Launch<'autoscale'>): Promise<void> {
  const pool = new Cooperator(launch.options);
  const server = createFront({
    dispatch: (work) => pool.submit(work),
    stats: () => pool.counters.toStats('autoscale', 1 + pool.size, 0),
  });
  onShutdown(() => {
    pool.stop();
    server.close();
    server.closeAllConnections();
  });
  await pool.warm();
  const port = await listen(server, launch);
  announceReady('autoscale', launch.host, port);
}
