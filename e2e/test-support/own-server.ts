import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';

// A user's own server that Loadscope does not run: a tiny node:http service on 127.0.0.1, started
// by the test before the scenario points at it as an external target (no command), stopped after.

export interface OwnServer {
  url: string;
  close(): Promise<void>;
}

/** Answers every request with a short 200 at once; port 0, so no port is hard-coded. */
export async function startOwnServer(): Promise<OwnServer> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
  // a request that never ends must not hold the test's end
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released): a target that refuses every connection. */
export async function refusingUrl(): Promise<string> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const address = probe.address();
  if (address === null || typeof address === 'string') throw new Error('the probe has no port');
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${address.port}`;
}
