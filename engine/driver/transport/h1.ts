import type { Socket } from 'node:net';
import type { Phase } from '../../../contract/scenario.js';
import { ResponseParser, type ResponseSink } from './h1-response.js';
import { fixedTemplate, isVariable, type VariableRequest } from '../requests/request-compile.js';
import type { CompiledRequest } from '../requests/compiled-request.js';
import type { OpenAhead, RequestHandler } from './connection.js';
import type { Target } from './target.js';
import type { ConnectRecorder } from './connect-timing.js';
import { h1EndpointOf, type H1Endpoint } from './h1-endpoint.js';

// A minimal HTTP/1.1 keep-alive connection for the driver's common case (http or https, keep-alive,
// ordinary headers): the request bytes are built once per template and written as one Buffer, and
// the response is parsed in place, as strictly as undici's llhttp (h1-response.ts). undici rebuilds
// and re-validates every request and runs a general parser; that was most of the driver's CPU per
// request. Anything unusual (keepAlive: false, odd headers, a flow reading response headers, h2)
// still goes through undici (fastPathSuits, index.ts). Over https the socket is TLS (h1-endpoint.ts).
// Errors carry undici's / Node's / llhttp's codes, so classifyError treats both paths alike.
//
//   dispatch -> [connect (+ TLS handshake)] -> write(request) ─ onConnect
//   data -> ResponseParser: head ─ onHeaders -> body (length | chunked | until close) ─ onData* -> onComplete
//   error / close / inactivity timeout / a malformed response while a request is in flight -> onError(code)
//   any byte with no request in flight, or after a response's end in the same read -> the connection closes

/** rawHeaders holds only the headers the driver reads (Server-Timing); onConnect gets no abort */
export type H1Handler = RequestHandler;

export interface H1Request {
  bytes: Buffer;
  /** HEAD: a response has no body whatever its headers say */
  head: boolean;
  /** a template with placeholders: bytes are built per request from it (request-compile.ts) */
  variable: VariableRequest | null;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SAFE_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const SAFE_PATH = /^\/[\x21-\x7e]*$/;
/** headers whose framing meaning the fast path would have to honour; templates with them use undici */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade', 'keep-alive']);
const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A placeholder's stand-in for the checks below: its value is escaped for where it lands (request-compile.ts). */
const PLACEHOLDER = /(?<!\\)\{\{.*?\}\}/g;

/**
 * Whether a phase can go the fast path: http or https (HTTP/1.1 in TLS) to the origin, keep-alive,
 * and every template's path and headers ordinary (a placeholder stands for a value escaped where it
 * lands). Else undici.
 */
export function fastPathSuits(phase: Phase, baseUrl: string): boolean {
  const url = new URL(baseUrl);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !phase.keepAlive || (url.pathname !== '/' && url.pathname !== '')) return false;
  return phase.requests.every((template) => {
    const t = isVariable(template) ? { path: template.path.replace(PLACEHOLDER, 'x'), headers: Object.fromEntries(Object.entries(template.headers).map(([n, v]) => [n, v.replace(PLACEHOLDER, 'x')])) } : fixedTemplate(template);
    return fastPathHeaders(t.path, t.headers);
  });
}

/** A compiled template as the fast path sends it: its bytes built once, or its placeholders' compiled form (compiled with this `host`). */
export function h1RequestOf(r: CompiledRequest, host: string): H1Request {
  const head = r.method === 'HEAD';
  if (r.variable !== null) return { bytes: Buffer.alloc(0), head, variable: r.variable };
  let text = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [name, value] of Object.entries(r.headers)) text += `${name}: ${value}\r\n`;
  if (r.body !== null || PAYLOAD_METHODS.has(r.method)) text += `content-length: ${r.body?.length ?? 0}\r\n`;
  text += '\r\n';
  const headBytes = Buffer.from(text, 'latin1');
  return { bytes: r.body === null ? headBytes : Buffer.concat([headBytes, r.body]), head, variable: null };
}

/** Whether a path and headers suit the fast path: a plain path, token names, no framing headers, safe values. */
function fastPathHeaders(path: string, headers: Record<string, string>): boolean {
  if (!SAFE_PATH.test(path)) return false;
  for (const [name, value] of Object.entries(headers)) if (!TOKEN.test(name) || FRAMING.has(name.toLowerCase()) || !SAFE_VALUE.test(value)) return false;
  return true;
}

function codeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

const S_IDLE = 0;
const S_CONNECTING = 1;
/** a request is written and its response is being read (h1-response.ts) */
const S_SENT = 2;

export class H1Connection implements ResponseSink, OpenAhead<H1Request> {
  private socket: Socket | null = null;
  private handler: H1Handler | null = null;
  private request: H1Request | null = null;
  private state = S_IDLE;
  private readonly parser = new ResponseParser(this);
  /** the socket is connected (and its TLS handshake done): requests are written to it, not held for its ready event */
  private ready = false;
  private readonly endpoint: H1Endpoint;

  /** `times` hears each new TLS connection's connect and handshake (h1-endpoint.ts) */
  constructor(
    target: Pick<Target, 'baseUrl' | 'lookup' | 'tls'>,
    private readonly timeoutMs: number,
    times: ConnectRecorder | null = null,
  ) {
    this.endpoint = h1EndpointOf(target, times);
  }

  dispatch(request: H1Request, handler: H1Handler): void {
    this.handler = handler;
    this.request = request;
    const s = this.socket;
    if (s !== null && this.ready && !s.destroyed && s.writable) {
      this.send(s);
      return;
    }
    // still connecting or in its handshake (opened ahead by open()): the ready listener sends; sent is stamped then
    this.state = S_CONNECTING;
    if (s === null || s.destroyed || this.ready) this.connect();
  }

  /**
   * Connects ahead of the first request, sending nothing; resolves once connected or failed (a
   * failed connection is simply opened again by the next dispatch, which then gets its own error).
   */
  open(): Promise<void> {
    if (this.socket !== null) return Promise.resolve();
    const socket = this.connect();
    return new Promise((resolve) => {
      const done = (): void => {
        socket.off(this.endpoint.ready, done);
        socket.off('close', done);
        resolve();
      };
      socket.on(this.endpoint.ready, done);
      socket.on('close', done);
    });
  }

  private connect(): Socket {
    const socket = this.endpoint.connect();
    this.socket = socket;
    this.ready = false;
    socket.setTimeout(this.timeoutMs);
    socket.on(this.endpoint.ready, () => {
      if (this.socket !== socket) return;
      this.ready = true;
      if (this.state === S_CONNECTING) this.send(socket);
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.socket === socket) this.onBytes(chunk);
    });
    socket.on('timeout', () => {
      if (this.socket !== socket || this.handler === null) return;
      const code = this.state === S_CONNECTING ? 'UND_ERR_CONNECT_TIMEOUT' : this.parser.inHead ? 'UND_ERR_HEADERS_TIMEOUT' : 'UND_ERR_BODY_TIMEOUT';
      this.fail(codeError(code, 'timeout'));
    });
    socket.on('error', (err: Error) => {
      if (this.socket === socket) this.fail(err);
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.handler === null) return;
      if (this.state === S_SENT && this.parser.untilClose) this.complete(false);
      else this.fail(codeError('UND_ERR_SOCKET', 'other side closed'));
    });
    return socket;
  }

  /** Drops the connection; a request in flight fails (on a later turn, like undici's destroy). */
  destroy(): void {
    const handler = this.handler;
    this.handler = null;
    this.state = S_IDLE;
    this.parser.reset();
    this.socket?.destroy();
    this.socket = null;
    if (handler !== null) process.nextTick(() => handler.onError(codeError('UND_ERR_DESTROYED', 'the connection was destroyed')));
  }

  /** Closes an idle connection. */
  close(): void {
    if (this.handler !== null) return;
    this.socket?.end();
    this.socket = null;
  }

  private send(s: Socket): void {
    this.state = S_SENT;
    this.parser.start(this.request!.head);
    this.handler!.onConnect();
    s.write(this.request!.bytes);
  }

  private fail(err: Error): void {
    const handler = this.handler;
    this.handler = null;
    this.state = S_IDLE;
    this.parser.reset();
    this.dropSocket();
    handler?.onError(err);
  }

  private complete(extra: boolean): void {
    const handler = this.handler!;
    this.handler = null;
    this.state = S_IDLE;
    // bytes past the response's end that no request asked for: the connection is out of step (a
    // desync or a response sent early), so it goes, as undici's does, before they could be read as
    // the next request's answer; the next request opens a new one
    if (extra) this.dropSocket();
    else if (this.parser.closeAfter) {
      this.socket?.end();
      this.socket = null;
    }
    // may dispatch the next request on this connection, synchronously
    handler.onComplete();
  }

  private dropSocket(): void {
    const s = this.socket;
    this.socket = null;
    s?.destroy();
  }

  private onBytes(chunk: Buffer): void {
    // bytes while no response is awaited (idle, or opened ahead and not yet sent on): out of step
    if (this.handler === null || this.state !== S_SENT) return this.dropSocket();
    this.parser.execute(chunk);
  }

  // the parser's sink (h1-response.ts): each is called with a request in flight

  onHead(status: number, timing: Buffer[]): void {
    this.handler!.onHeaders(status, timing);
  }

  onBody(chunk: Buffer): void {
    this.handler!.onData(chunk);
  }

  onEnd(extra: boolean): void {
    this.complete(extra);
  }

  onMalformed(code: string, message: string): void {
    this.fail(codeError(code, message));
  }
}
