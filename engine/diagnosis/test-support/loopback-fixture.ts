import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

// The shape-rule fixture servers' common part: a node:http server on 127.0.0.1 at a port the system
// picks, closed with its connections and its pending timers (so no answer fires after the test).

export interface FixtureServer {
  url: string;
  close(): Promise<void>;
}

export async function serveOnLoopback(handler: RequestListener, timers: Set<NodeJS.Timeout>): Promise<FixtureServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** setTimeout, kept in `timers` until it fires, so close() can clear it. */
export function later(timers: Set<NodeJS.Timeout>, ms: number, run: () => void): void {
  const t = setTimeout(() => {
    timers.delete(t);
    run();
  }, ms);
  timers.add(t);
}
