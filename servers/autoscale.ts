import { announceReady } from './announce.js';
import { Cooperator } from './cooperator.js';
import { closeFront, createFront, listen } from './http-front.js';
import { makeTransport } from './front-transport.js';
import { onShutdown } from './lifecycle.js';
import type { Launch } from './options.js';

// autoscale (seed 000's proposal): the Master accepts HTTP and hands each request to a pool of forked
// worker processes managed by the Cooperator (cooperator.ts), which grows the pool when all workers
// are busy (up to max) and retires workers idle for idleMs (down to min). The Master does no work.

export async function start(launch: Launch<'autoscale'>): Promise<void> {
  const pool = new Cooperator(launch.options);
  const transport = await makeTransport(launch.options.protocol ?? 'h1');
  const server = createFront(
    {
      dispatch: (work) => pool.submit(work),
      stats: () => pool.counters.toStats('autoscale', 1 + pool.size, 0),
    },
    transport,
  );
  onShutdown(() => {
    pool.stop();
    closeFront(server);
  });
  await pool.warm();
  const port = await listen(server, launch);
  announceReady('autoscale', launch.host, port, transport);
}
