import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A target whose every request gets slower the more are in flight: it works (a timer, not the CPU,
// so a busy machine cannot change the shape) PER_REQUEST_MS x the requests in flight when it
// arrived, the way lock contention slows each request. With serverTiming it reports that as
// Server-Timing proc; without, it sends no Server-Timing (an unknown split). Bound to 127.0.0.1.

// 100, not 25: what a loaded machine adds to every request (the client's and the fixture's turns,
// tens of ms under 4 busy loops) is the same at 1 user and at 4, so beside 25 ms it lifted the light
// phase's time and made throughput look like it grew with the users (server-slower missed 1 in 3)
export const PER_REQUEST_MS = 100;

export interface ContentionServer {
  url: string;
  close(): Promise<void>;
}

export async function startContentionServer(options: { serverTiming: boolean }): Promise<ContentionServer> {
  let inFlight = 0;
  const server: Server = createServer((req, res) => {
    inFlight++;
    const ms = PER_REQUEST_MS * inFlight;
    const started = performance.now();
    req.resume();
    setTimeout(() => {
      inFlight--;
      const headers: Record<string, string> = { 'content-type': 'text/plain', 'content-length': '2' };
      if (options.serverTiming) headers['server-timing'] = `proc;dur=${(performance.now() - started).toFixed(3)}`;
      res.writeHead(200, headers).end('ok');
    }, ms);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
