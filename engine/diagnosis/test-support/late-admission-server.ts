import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A target that admits some users late, the way a busy single-threaded server's accept queue does:
// every LATE_EVERY-th connection's first request is answered ADMISSION_DELAY_MS late (a timer, so a
// busy machine cannot change the shape), every other request at once. Its Server-Timing proc is the
// handler's own time, which excludes the delay, as a real server cannot see the time a connection
// spent in its queue. Bound to 127.0.0.1.

export const ADMISSION_DELAY_MS = 400;
/** one connection in this many is admitted late: a third */
export const LATE_EVERY = 3;

export interface LateAdmissionServer {
  url: string;
  close(): Promise<void>;
}

export async function startLateAdmissionServer(): Promise<LateAdmissionServer> {
  let connections = 0;
  // connections whose first request is still to be delayed
  const admitLate = new WeakSet<Socket>();
  const server: Server = createServer((req, res) => {
    req.resume();
    const answer = (): void => {
      const started = performance.now();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2', 'server-timing': `proc;dur=${(performance.now() - started).toFixed(3)}` }).end('ok');
    };
    if (!admitLate.has(req.socket)) return answer();
    admitLate.delete(req.socket);
    setTimeout(answer, ADMISSION_DELAY_MS);
  });
  server.on('connection', (socket: Socket) => {
    if (connections++ % LATE_EVERY === 0) admitLate.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
