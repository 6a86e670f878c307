import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureServer, createServer as createH2cServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { Server as NetServer, Socket } from 'node:net';
import { STATS_PATH } from '../contract/servers.js';
import { nowMs } from './clock.js';
import { formatServerTiming, SERVER_TIMING_HEADER } from './server-timing.js';
import type { WorkDone, WorkResult } from './work.js';
import { textResult } from './work.js';
import { API_PREFIX, MAX_API_BODY } from './api-request.js';
import { parseWorkRequest, type RequestContent } from './work-request.js';
import type { FrontTransport } from './front-transport.js';
import type { Dispatcher } from './dispatcher.js';
import { handleGrpc, isGrpcRequest } from './grpc-front.js';
import { EVENTS_PATH, parseEvents, serveEvents } from './events.js';
import { attachWebSockets, type WsCounts } from './ws-front.js';

// The HTTP side every architecture shares: parse the request into Work, hand it to the architecture's
// dispatcher with the accept time, answer with the result and its Server-Timing header. /__stats asks
// the dispatcher for its counters. Bad requests get a 4xx with a one-line reason and zero timings.
// The same handler serves HTTP/1.1, https and h2 (node:http2's compatibility request and response).

export type { Dispatcher } from './dispatcher.js';

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

function send(req: Request, res: Response, result: WorkResult, waitMs: number, procMs: number): void {
  const body = typeof result.body === 'string' ? Buffer.from(result.body) : result.body;
  res.writeHead(result.status, {
    'Content-Type': result.contentType,
    'Content-Length': body.byteLength,
    [SERVER_TIMING_HEADER]: formatServerTiming({ waitMs, procMs }),
  });
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** The API's body as text (null past MAX_API_BODY); other paths never read theirs, so it is drained. */
function readContent(req: Request): Promise<RequestContent | null> {
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

async function handle(dispatcher: Dispatcher, req: Request, res: Response, webSockets: WsCounts): Promise<void> {
  const content = await readContent(req);
  // accepted once the request is in: a slow upload is the client's time, not the server's queue
  const acceptedMs = nowMs();
  if (content === null) {
    send(req, res, textResult(413, `request body over ${MAX_API_BODY} bytes`), 0, 0);
    return;
  }
  if (req.url === EVENTS_PATH || req.url?.startsWith(`${EVENTS_PATH}?`)) {
    // a stream of the front's own (events.ts): no work dispatched
    const spec = parseEvents(new URLSearchParams(req.url.slice(EVENTS_PATH.length)));
    if (typeof spec === 'string') send(req, res, textResult(400, spec), 0, 0);
    else serveEvents(req, res, spec);
    return;
  }
  if (req.url === STATS_PATH || req.url?.startsWith(`${STATS_PATH}?`)) {
    const stats = await dispatcher.stats();
    send(req, res, { status: 200, contentType: 'application/json', body: JSON.stringify({ ...stats, webSockets }) }, 0, 0);
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

/** Any of the fronts createFront makes: all are net servers underneath. */
export type FrontServer = NetServer;

const openSockets = new WeakMap<NetServer, Set<Socket>>();

/**
 * The front for a transport (default plain HTTP/1.1). Over TLS the certificate is the transport's;
 * h2 also answers HTTP/1.1 clients (ALPN), h2c only h2 with prior knowledge.
 */
export function createFront(dispatcher: Dispatcher, transport: FrontTransport = { protocol: 'h1' }): FrontServer {
  // the WebSocket sessions' counts (ws-front.ts keeps them), read by /__stats
  const webSockets: WsCounts = { open: 0, received: 0, sent: 0 };
  const onRequest = (req: Request, res: Response): void => {
    handle(dispatcher, req, res, webSockets).catch((err: unknown) => {
      if (!res.headersSent) send(req, res, textResult(500, err instanceof Error ? err.message : String(err)), 0, 0);
      else if ('stream' in res) res.stream.destroy();
      else res.destroy();
    });
  };
  let server: NetServer;
  if (transport.protocol === 'h2' || transport.protocol === 'h2c') {
    // no idle timeout, as for HTTP/1.1 below: sleep may legitimately run for two minutes
    const options = { allowHTTP1: true, ...transport.tls, settings: { maxConcurrentStreams: 1000 } };
    // gRPC rides HTTP/2 only (its trailers): the bundled service (grpc-front.ts) beside the HTTP routes
    const onH2Request = (req: Http2ServerRequest, res: Http2ServerResponse): void => {
      if (isGrpcRequest(req)) void handleGrpc(dispatcher, req, res);
      else onRequest(req, res);
    };
    server = transport.protocol === 'h2' ? createSecureServer(options, onH2Request) : createH2cServer(options, onH2Request);
  } else {
    const http: Server = transport.protocol === 'h1-tls' ? createHttpsServer({ ...transport.tls }, onRequest) : createServer(onRequest);
    http.keepAliveTimeout = 65_000;
    http.headersTimeout = 66_000;
    http.requestTimeout = 0; // sleep may legitimately run for two minutes
    server = http;
  }
  // every architecture answers WebSocket on its front, beside its HTTP (ws-front.ts)
  attachWebSockets(server, webSockets);
  // closeFront ends kept-alive connections, h2 sessions and WebSocket sessions alike by their TCP sockets
  const sockets = new Set<Socket>();
  openSockets.set(server, sockets);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return server;
}

/** Stops accepting and drops every open connection (a request in flight is cut, as at shutdown). */
export function closeFront(server: FrontServer): void {
  server.close();
  for (const socket of openSockets.get(server) ?? []) socket.destroy();
}

export interface ListenAddress {
  port: number;
  host: string;
}

/** Listens and resolves with the bound port. */
export function listen(server: FrontServer, address: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: address.port, host: address.host, backlog: 4096 }, () => {
      server.off('error', reject);
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound.port : address.port);
    });
  });
}
