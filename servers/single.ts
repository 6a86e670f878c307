import { announceReady } from './announce.js';
import { createFront, listen } from './http-front.js';
import { InProcessDispatcher } from './in-process.js';
import { onShutdown } from './lifecycle.js';
import type { Launch } from './options.js';

// single: one process; the work runs in its event loop. concurrency N caps the requests worked on at
// once (FIFO queue for the rest; 1 = strictly sequential like seed 002's Rudy; 0 = no limit).

export async function start(launch: Launch<'single'>): Promise<void> {
  const dispatcher = new InProcessDispatcher(launch.options.concurrency, (c) => c.toStats('single', 1, 0));
  const server = createFront(dispatcher);
  onShutdown(() => {
    server.close();
    server.closeAllConnections();
  });
  const port = await listen(server, launch);
  announceReady('single', launch.host, port);
}
