import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { toApiError } from '../../contract/errors.js';
import { mib, uploadLimitOf, uploadRoom } from '../../contract/upload-limits.js';
import { dispatchCall, type EngineApiSurface } from '../../engine/host/api-dispatch.js';
import { rootPath } from '../../engine/paths.js';
import { guardCall, holdCallGuard } from './call-guard.js';
import { checkHostAndOrigin, securityHeaders, statusForCode, tokenMatches } from './security.js';
import { readStatic } from './static-files.js';

// The browser host: the built renderer and the same contract as Electron's IPC, over HTTP and a
// WebSocket, on 127.0.0.1 only.
//   POST /api/<call name>   header x-loadscope-token, JSON request -> 200 JSON response | 4xx/5xx {code, message}
//   GET  /events?token=...  WebSocket upgrade; every engine event as JSON {event, payload}
//   GET  /...               the renderer's files (no token: they are the public build), strict CSP
// Every request body is parsed against the contract (dispatchCall) before the engine sees it, and
// no call can end the process: whatever a handler throws, when or wherever, is that call's error
// (call-guard.ts).

export interface BrowserHostOptions {
  engine: EngineApiSurface;
  port?: number;
  host?: '127.0.0.1';
  staticDir?: string;
  /** Request bodies above this are refused with 413, but those of calls that carry a file (bodyLimitOf). */
  maxBodyBytes?: number;
}

export interface BrowserHost {
  /** http://127.0.0.1:PORT/?token=... : what a person opens */
  url: string;
  port: number;
  token: string;
  /** How many event sockets are connected (for tests and diagnostics). */
  clientCount(): number;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
/** A file-carrying call's body past its file's room: its name, options, the rest of a bundle's files. */
const UPLOAD_CALL_REST = 1024 * 1024;
/** A socket this far behind is dropped (it reconnects) rather than buffering without bound. */
const MAX_SOCKET_BACKLOG = 16 * 1024 * 1024;
/** The largest message a page may send on the event socket (it sends none; this leaves room for pings). */
export const MAX_CLIENT_MESSAGE = 4096;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A call's body bound, and the one line that refuses a body past it. */
interface BodyLimit {
  bytes: number;
  refusal: string;
}

/**
 * Every call's body is small, but a call that carries a file (a HAR, a description, a scenario
 * bundle, a data file): its body may hold that file as JSON escapes it, bounded by the importer's own
 * limit (contract/upload-limits.ts) and no more; the importer refuses a file over its limit that fits.
 */
function bodyLimitOf(call: string, small: number): BodyLimit {
  const upload = uploadLimitOf(call);
  if (upload === undefined) return { bytes: small, refusal: `a call's body may have at most ${mib(small)}` };
  const bytes = uploadRoom(upload.bytes) + UPLOAD_CALL_REST;
  return { bytes, refusal: `${call}: ${upload.what} may have at most ${mib(upload.bytes)}; this request's body is over ${mib(bytes)}` };
}

function readBody(req: IncomingMessage, { bytes: limit, refusal }: BodyLimit): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooBig = () => new HttpError(413, 'LS_ERR_BAD_REQUEST', refusal);
    const chunks: Buffer[] = [];
    let size = 0;
    if (Number(req.headers['content-length'] ?? 0) > limit) reject(tooBig());
    // Past the cap the rest is read and dropped (so the client sees the 413 rather than a reset),
    // and a sender that keeps going far beyond it is cut off.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        reject(tooBig());
        if (size > limit * 16) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { engine } = options;
  const host = '127.0.0.1';
  const staticDir = options.staticDir ?? rootPath('dist/renderer');
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const token = randomBytes(32).toString('base64url');
  let port = 0;

  function send(res: ServerResponse, status: number, body: string | Buffer, contentType: string, extra: Record<string, string> = {}): void {
    if (res.headersSent) return;
    res.writeHead(status, { ...securityHeaders(port), 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...extra });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  }
  function sendError(res: ServerResponse, status: number, code: string, message: string): void {
    send(res, status, JSON.stringify({ code, message }), 'application/json; charset=utf-8', { 'cache-control': 'no-store' });
  }

  async function handleCall(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    if (req.method !== 'POST') return sendError(res, 405, 'LS_ERR_BAD_REQUEST', 'calls are POST');
    const givenToken = req.headers['x-loadscope-token'];
    if (!tokenMatches(token, typeof givenToken === 'string' ? givenToken : undefined)) {
      return sendError(res, 401, 'LS_ERR_UNAUTHORIZED', 'missing or wrong x-loadscope-token (use the URL loadscope ui printed)');
    }
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json(;|$)/i.test(type)) return sendError(res, 415, 'LS_ERR_BAD_REQUEST', 'calls take application/json');
    const text = await readBody(req, bodyLimitOf(name, maxBody));
    let request: unknown;
    try {
      request = text === '' ? undefined : JSON.parse(text);
    } catch {
      return sendError(res, 400, 'LS_ERR_BAD_REQUEST', `${name}: the body is not JSON`);
    }
    try {
      const response = await guardCall(name, () => dispatchCall(engine.handlers, name, request));
      send(res, 200, JSON.stringify(response ?? null), 'application/json; charset=utf-8', { 'cache-control': 'no-store' });
    } catch (err) {
      const apiError = toApiError(err);
      sendError(res, statusForCode(apiError.code), apiError.code, apiError.message);
    }
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'LS_ERR_BAD_REQUEST', 'only GET here');
    const found = await readStatic(staticDir, pathname);
    switch (found.kind) {
      case 'file':
        return send(res, 200, found.body, found.contentType, {
          'cache-control': found.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
        });
      case 'refused':
        return sendError(res, 403, 'LS_ERR_BAD_REQUEST', found.reason);
      case 'missing':
        return sendError(res, 404, 'LS_ERR_BAD_REQUEST', 'no such file');
      case 'not-built':
        return send(res, 503, 'The Loadscope renderer is not built: run `npm run build` in the loadscope folder.\n', 'text/plain; charset=utf-8');
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = checkHostAndOrigin(req.headers, port);
    if (refused) return sendError(res, 403, 'LS_ERR_NOT_LOOPBACK', refused);
    const rawPath = (req.url ?? '/').split('?')[0];
    if (rawPath.startsWith('/api/')) return handleCall(req, res, rawPath.slice('/api/'.length));
    return handleStatic(req, res, rawPath);
  }

  const releaseGuard = holdCallGuard();
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      try {
        if (err instanceof HttpError) {
          res.shouldKeepAlive = false;
          sendError(res, err.status, err.code, err.message);
        } else {
          const apiError = toApiError(err);
          sendError(res, 500, apiError.code, apiError.message);
        }
      } catch {
        // the answer itself failed (an unsendable message): that one connection ends, not the host
        res.destroy();
      }
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;

  // The page never needs to send more than a close frame; anything larger or malformed (invalid
  // UTF-8, bad opcode, unmasked) is a protocol error that closes that one socket.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE, skipUTF8Validation: false });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const [path, query = ''] = (req.url ?? '').split('?');
    const refused = checkHostAndOrigin(req.headers, port);
    const reason =
      path !== '/events'
        ? '404 Not Found'
        : refused
          ? '403 Forbidden'
          : !tokenMatches(token, new URLSearchParams(query).get('token'))
            ? '401 Unauthorized'
            : null;
    if (reason) {
      socket.end(`HTTP/1.1 ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      // The socket only carries events out; anything the page sends is ignored.
      ws.on('message', () => undefined);
      // Without a listener ws re-throws a frame error and the whole host process dies.
      ws.on('error', () => ws.terminate());
      wss.emit('connection', ws, req);
    });
  });

  const unsubscribe = engine.subscribe((event) => {
    if (wss.clients.size === 0) return;
    const data = JSON.stringify(event);
    for (const ws of wss.clients) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.bufferedAmount > MAX_SOCKET_BACKLOG) ws.terminate();
      else ws.send(data);
    }
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => {
      releaseGuard();
      unsubscribe();
      reject(err);
    };
    server.once('error', failed);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the browser host has no TCP address');
  port = address.port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}/?token=${token}`,
    port,
    token,
    clientCount: () => wss.clients.size,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        releaseGuard();
        unsubscribe();
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
