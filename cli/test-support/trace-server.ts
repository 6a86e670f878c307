import { createServer as createH1, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createH2c, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';

// A target on 127.0.0.1 that records the traceparent header of every request it gets (issue 38),
// and is slow by design on some: the request whose arrival on its path is the 3rd, 9th, 15th, ...
// (n % 6 === 3) is answered after SLOW_MS on a timer, every other one at once. Which requests were
// slow is the server's own record, so a test can check that the slowest requests Loadscope lists
// are exactly these. Over HTTP/1.1 (keep-alive or not) or h2c.

/** how long a slow request is held: far above a fast answer even on a machine with busy loops */
export const SLOW_MS = 800;
/** requests recorded at most (a bound: a runaway client cannot grow the test's memory) */
const MAX_SEEN = 10_000;

export interface SeenRequest {
  path: string;
  /** the traceparent header as received; null without one, every value joined with ',' when repeated */
  traceparent: string | null;
  slow: boolean;
}

export interface TraceServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

function traceparentOf(headers: IncomingHttpHeaders): string | null {
  const v = headers.traceparent;
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(',') : v;
}

export async function startTraceServer(protocol: 'h1' | 'h2c'): Promise<TraceServer> {
  const seen: SeenRequest[] = [];
  const arrivals = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const handle = (url: string, headers: IncomingHttpHeaders, answer: () => void): void => {
    const path = new URL(url, 'http://x').pathname;
    const n = (arrivals.get(path) ?? 0) + 1;
    arrivals.set(path, n);
    const slow = n % 6 === 3;
    if (seen.length < MAX_SEEN) seen.push({ path, traceparent: traceparentOf(headers), slow });
    if (!slow) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, SLOW_MS);
    timers.add(timer);
  };
  const server: Server | Http2Server =
    protocol === 'h1'
      ? createH1((req, res) => handle(req.url ?? '/', req.headers, () => res.end('ok')))
      : createH2c((req, res) => handle(req.url, req.headers, () => res.end('ok')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
