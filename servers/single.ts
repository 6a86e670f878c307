import { announceReady } from './announce.js';
import { closeFront, createFront, listen } from './http-front.js';
import { makeTransport } from './front-transport.js';
import { InProcessDispatcher } from './in-process.js';
import { onShutdown } from './lifecycle.js';
import type { Launch } from './options.js';

// single: one process; the work runs in its event loop. concurrency N caps the requests worked on at
// once (FIFO queue for the rest; 1 = strictly sequential like seed 002's Rudy; 0 = no limit).

export async function start(launch: Launch<'single'>): Promise<void> {
  const dispatcher = new InProcessDispatcher(launch.options.concurrency, (c) => c.toStats('single', 1, 0));
  const transport = await makeTransport(launch.options.protocol ?? 'h1');
  const server = createFront(dispatcher, transport);
  onShutdown(() => {
    closeFront(server);
  });
  const port = await listen(server, launch);
  announceReady('single', launch.host, port, transport);
}
