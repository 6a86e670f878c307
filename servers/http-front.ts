import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { STATS_PATH, type ServerStats } from '../contract/servers.js';
import { nowMs } from './clock.js';
import { formatServerTiming, SERVER_TIMING_HEADER } from './server-timing.js';
import type { Work, WorkDone, WorkResult } from './work.js';
import { textResult } from './work.js';
import { API_PREFIX, MAX_API_BODY } from './api-request.js';
import { parseWorkRequest, type RequestContent } from './work-request.js';

// The HTTP side every architecture shares: parse the request into Work, hand it to the architecture's
// dispatcher with the accept time, answer with the result and its Server-Timing header. /__stats asks
// the dispatcher for its counters. Bad requests get a 4xx with a one-line reason and zero timings.

export interface Dispatcher {
  /** Runs the work somewhere; resolves when it is done. `acceptedMs` is on the shared clock. */
  dispatch(work: Work, acceptedMs: number): Promise<WorkDone>;
  stats(): ServerStats | Promise<ServerStats>;
}

function send(req: IncomingMessage, res: ServerResponse, result: WorkResult, waitMs: number, procMs: number): void {
  const body = typeof result.body === 'string' ? Buffer.from(result.body) : result.body;
  res.writeHead(result.status, {
    'Content-Type': result.contentType,
    'Content-Length': body.byteLength,
    [SERVER_TIMING_HEADER]: formatServerTiming({ waitMs, procMs }),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The API's body as text (null past MAX_API_BODY); other paths never read theirs, so it is drained. */
function readContent(req: IncomingMessage): Promise<RequestContent | null> {
  if (!req.url?.startsWith(API_PREFIX)) {
    // keep-alive connections stay usable
    req.resume();
    return Promise.resolve({ headers: req.headers, body: '' });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_API_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_API_BODY ? null : { headers: req.headers, body: Buffer.concat(chunks).toString() }));
    req.on('error', reject);
  });
}

async function handle(dispatcher: Dispatcher, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const content = await readContent(req);
  // accepted once the request is in: a slow upload is the client's time, not the server's queue
  const acceptedMs = nowMs();
  if (content === null) {
    send(req, res, textResult(413, `request body over ${MAX_API_BODY} bytes`), 0, 0);
    return;
  }
  if (req.url === STATS_PATH || req.url?.startsWith(`${STATS_PATH}?`)) {
    const stats = await dispatcher.stats();
    send(req, res, { status: 200, contentType: 'application/json', body: JSON.stringify(stats) }, 0, 0);
    return;
  }
  const parsed = parseWorkRequest(req.method, req.url, content);
  if (!parsed.ok) {
    send(req, res, textResult(parsed.error.status, parsed.error.reason), 0, 0);
    return;
  }
  let done: WorkDone;
  try {
    done = await dispatcher.dispatch(parsed.work, acceptedMs);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    send(req, res, textResult(502, `worker failed: ${reason.split('\n')[0] ?? ''}`), nowMs() - acceptedMs, 0);
    return;
  }
  send(req, res, done.result, Math.max(0, done.startMs - acceptedMs), done.procMs);
}

export function createFront(dispatcher: Dispatcher): Server {
  const server = createServer((req, res) => {
    handle(dispatcher, req, res).catch((err: unknown) => {
      if (!res.headersSent) send(req, res, textResult(500, err instanceof Error ? err.message : String(err)), 0, 0);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0; // sleep may legitimately run for two minutes
  return server;
}

export interface ListenAddress {
  port: number;
  host: string;
}

/** Listens and resolves with the bound port. */
export function listen(server: Server, address: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: address.port, host: address.host, backlog: 4096 }, () => {
      server.off('error', reject);
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound.port : address.port);
    });
  });
}
