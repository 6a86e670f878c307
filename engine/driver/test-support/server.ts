import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A small HTTP target for the driver's tests, on 127.0.0.1 port 0. It counts concurrent requests and
// answers by path:
//   /ok              200 "hello" with Server-Timing wait;dur=0.5, proc;dur=1.25
//   /plain           200 without Server-Timing
//   /sleep?ms=N      200 after N ms (timer; the event loop stays free)
//   /status?code=N   status N
//   /hang            never answers
//   /len             200 with a body whose length changes every request
//   /destroy         closes the connection without answering
//   anything, with stallAt = K: the K-th request blocks the event loop for stallMs (a busy loop)
export interface TestServer {
  url: string;
  port: number;
  server: Server;
  /** requests received */
  received: number;
  /** requests being handled now / the most at once */
  current: number;
  maxConcurrent: number;
  /** performance.now() (this process) at each request's arrival */
  arrivals: number[];
  /** TCP connections accepted */
  connections: number;
  close(): Promise<void>;
}

export interface TestServerOptions {
  stallAt?: number;
  stallMs?: number;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const hanging = new Set<ServerResponse>();
  const state: TestServer = {
    url: '',
    port: 0,
    server: null as unknown as Server,
    received: 0,
    current: 0,
    maxConcurrent: 0,
    arrivals: [],
    connections: 0,
    close: async () => {
      for (const res of hanging) res.destroy();
      state.server.closeAllConnections();
      await new Promise<void>((resolve) => state.server.close(() => resolve()));
    },
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    state.received++;
    state.arrivals.push(performance.now());
    state.current++;
    if (state.current > state.maxConcurrent) state.maxConcurrent = state.current;
    const finish = (status: number, body: string, timing = true): void => {
      state.current--;
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (timing) headers['Server-Timing'] = 'wait;dur=0.5, proc;dur=1.25';
      res.writeHead(status, headers).end(body);
    };
    if (options.stallAt !== undefined && state.received === options.stallAt) {
      const until = performance.now() + (options.stallMs ?? 1000);
      while (performance.now() < until) {
        // blocks the event loop: every request arriving meanwhile waits
      }
    }
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/sleep':
        setTimeout(() => finish(200, 'slept'), Number(url.searchParams.get('ms') ?? 10));
        return;
      case '/status':
        return finish(Number(url.searchParams.get('code') ?? 500), 'status');
      case '/hang':
        hanging.add(res);
        res.on('close', () => {
          hanging.delete(res);
          state.current--;
        });
        return;
      case '/destroy':
        state.current--;
        req.socket.destroy();
        return;
      case '/plain':
        return finish(200, 'plain', false);
      case '/len':
        return finish(200, 'x'.repeat(1 + (state.received % 7)));
      default:
        return finish(200, 'hello');
    }
  };
  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  server.on('connection', () => state.connections++);
  state.server = server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  return state;
}
