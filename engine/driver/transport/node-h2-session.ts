import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { isIP } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { nowUs } from '../clock.js';
import type { ConnectRecorder } from './connect-timing.js';
import { recordTlsConnect } from './h1-endpoint.js';
import type { Connection, RequestHandler } from './connection.js';
import type { Target } from './target.js';

// One node:http2 session to the target (h2 by ALPN over TLS, h2c by prior knowledge), its requests
// as streams, at most `streams` at once (fewer when the server's SETTINGS_MAX_CONCURRENT_STREAMS says
// so); a request beyond that waits here unsent, so its wait shows as client queue (the slot stamps
// `sent` at onConnect, when its HEADERS are written). Both flow-control windows start at 2^30-1:
// node's 64 KiB defaults stall a busy session (nodejs/node#50972; docs/architecture.md says why).
//
//   dispatch -> [connect, the server's SETTINGS] -> waiting (FIFO, <= streams) -> request(): onConnect(reset) -> 'response' onHeaders -> 'data' onData* -> 'end' onComplete
//   stream error / RST_STREAM -> onError;  session error / close -> every request on it fails, the transport opens a new one
//   GOAWAY -> the session takes no more requests (its waiting ones go back to the transport), those in flight end as the server lets them
//
// Bounds: a response's header block at most MAX_HEADER_PAIRS fields, and at most a HEADERS frame and
// 8 CONTINUATION frames of 16 KiB (~144 KiB: nghttp2 ends a session sent more, node-h2-hostile.test.ts;
// node does not hold the server to the SETTINGS_MAX_HEADER_LIST_SIZE we advertise: a larger block
// was taken whole); node's session memory cap (floods of PING / SETTINGS); bodies stream through, never kept.
// `waiting` holds at most `streams` requests (a session serves that many slots), so an array will do.

/** One request in this transport's own form: the headers object is reused (node copies it per request). */
export interface H2Request {
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer | null;
}

/** both windows, per nodejs/node#50972 and oha's 2^30-1 */
export const H2_WINDOW = 2 ** 30 - 1;
/** what we ask of the server's header blocks (advertised, as the HTTP/1.1 path's MAX_HEAD; not enforced by node) */
const MAX_HEADER_LIST = 64 * 1024;
const MAX_HEADER_PAIRS = 256;

const codeError = (code: string, message: string): Error => Object.assign(new Error(message), { code });
/** what requests on a session that ended fail with: a reset, as undici's 'other side closed' */
const SESSION_CLOSED = (): Error => codeError('UND_ERR_SOCKET', 'the HTTP/2 session ended');

/** An h2 connection as its transport (node-h2.ts) holds it: on node:http2 (here) or frame by frame (fast-h2-session.ts). */
export interface H2Session extends Connection<H2Request> {
  /** A request still waiting for a stream (its deadline passed): taken out, never sent. True when it was here. */
  unqueue(handler: RequestHandler): boolean;
}

/** What ends a session's life for its transport. */
export interface SessionOwner {
  /** the session takes no more requests (GOAWAY, error, close): `waiting` are requests never sent, to send elsewhere */
  retired(session: H2Session, waiting: readonly Waiting[]): void;
  /** the session is gone (after retired, or a GOAWAY's last stream ended) */
  ended(session: H2Session): void;
}

export interface Waiting {
  readonly request: H2Request;
  readonly handler: RequestHandler;
}

/**
 * One stream's listeners, bound once and reused for the session's next requests (a pool of at
 * most `streams`), so a request allocates no closures of its own.
 */
class Call {
  stream: ClientHttp2Stream | null = null;
  handler: RequestHandler | null = null;
  ended = false;
  readonly onResponse = (headers: IncomingHttpHeaders): void => {
    const h = this.handler;
    if (h !== null) h.onHeaders(Number(headers[':status']), this.session.headerPairs(headers));
  };
  readonly onData = (chunk: Buffer): void => {
    this.handler?.onData(chunk);
  };
  readonly onEnd = (): void => {
    this.finish(null);
  };
  readonly onError = (err: Error): void => {
    this.finish(streamError(err));
  };
  readonly onClose = (): void => {
    // closed without its end (a reset, the session gone): an error unless one was already given
    if (!this.ended) this.finish(this.session.closedWith ?? streamError(codeError('ERR_HTTP2_STREAM_ERROR', `stream closed with code ${this.stream?.rstCode ?? 0}`)));
  };
  /** the request's reset (the deadline's): RST_STREAM CANCEL, the session kept */
  readonly reset = (err?: Error): void => {
    const s = this.stream;
    if (s === null || this.ended) return;
    this.finish(err ?? codeError('UND_ERR_ABORTED', 'the request was reset'));
    s.close(http2.constants.NGHTTP2_CANCEL);
  };

  constructor(private readonly session: NodeH2Session) {}

  finish(err: Error | null): void {
    if (this.ended) return;
    this.ended = true;
    const h = this.handler!;
    const s = this.stream!;
    this.handler = null;
    s.off('response', this.onResponse);
    s.off('data', this.onData);
    s.off('end', this.onEnd);
    // 'error' stays listened to: a stream may still report one after its end, and an unheard one would throw
    s.off('close', this.onClose);
    this.session.released(this);
    if (err === null) h.onComplete();
    else h.onError(err);
  }
}

/** a stream reset for breaking the protocol (by either side), as opposed to one the peer simply reset */
const PROTOCOL_RESET = /NGHTTP2_(PROTOCOL_ERROR|COMPRESSION_ERROR|FRAME_SIZE_ERROR|FLOW_CONTROL_ERROR|ENHANCE_YOUR_CALM)/;

/** node:http2's stream errors by kind (measure/errors.ts): a protocol breach, else a reset by the peer. */
function streamError(err: Error): Error {
  const code = (err as { code?: string }).code;
  if (code === 'ERR_HTTP2_STREAM_ERROR' && PROTOCOL_RESET.test(err.message)) return Object.assign(err, { code: 'LS_H2_PROTOCOL' });
  return err;
}

const swallow = (): void => undefined;

export class NodeH2Session implements H2Session {
  private session: ClientHttp2Session | null = null;
  private readonly waiting: Waiting[] = [];
  private readonly idle: Call[] = [];
  private readonly busy = new Set<Call>();
  /** streams at once: the scenario's, capped by the server's SETTINGS once known */
  private limit: number;
  private open = true;
  /** the server's first SETTINGS came: its stream limit is known, so requests may go */
  private ready = false;
  private closing = false;
  /** what the streams of a session that ended fail with */
  closedWith: Error | null = null;
  private connectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly target: Target,
    private readonly timeoutMs: number,
    private readonly streams: number,
    /** false: only Server-Timing is handed over (the driver reads no other header) */
    private readonly allHeaders: boolean,
    private readonly owner: SessionOwner,
    /** where an https session's connect and handshake times go (null: not measured) */
    private readonly times: ConnectRecorder | null,
  ) {
    this.limit = streams;
  }

  dispatch(request: H2Request, handler: RequestHandler): void {
    if (!this.open) return void process.nextTick(() => handler.onError(this.closedWith ?? SESSION_CLOSED()));
    const session = this.session;
    // a free stream and nobody ahead: sent at once, no waiting entry made
    if (session !== null && this.ready && !session.destroyed && this.waiting.length === 0 && this.busy.size < this.limit) return this.start(session, request, handler);
    this.waiting.push({ request, handler });
    if (session === null) this.connect();
  }

  /** A request still waiting for a stream (its deadline passed): taken out, never sent. True when it was here. */
  unqueue(handler: RequestHandler): boolean {
    const i = this.waiting.findIndex((w) => w.handler === handler);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  private connect(): void {
    const url = new URL(this.target.baseUrl);
    const tls = url.protocol === 'https:';
    const session = http2.connect(url.origin, {
      lookup: this.target.lookup,
      ...(tls && { createConnection: () => this.tlsSocket(url) }),
      settings: { enablePush: false, initialWindowSize: H2_WINDOW, maxHeaderListSize: MAX_HEADER_LIST },
      maxHeaderListPairs: MAX_HEADER_PAIRS,
      // node's default cap on what a session may hold (MiB), named: a flood of frames past it ends the session
      maxSessionMemory: 10,
    });
    this.session = session;
    this.connectTimer = setTimeout(() => this.end(codeError('UND_ERR_CONNECT_TIMEOUT', 'the HTTP/2 session did not connect (or the server sent no SETTINGS) in time')), this.timeoutMs);
    session.once('connect', () => session.setLocalWindowSize(H2_WINDOW));
    // nothing is sent before the server's SETTINGS: a stream over its limit would only be refused
    session.on('remoteSettings', (settings) => {
      clearTimeout(this.connectTimer!);
      this.ready = true;
      const max = settings.maxConcurrentStreams;
      this.limit = max === undefined ? this.streams : Math.max(1, Math.min(this.streams, max));
      this.pump();
    });
    session.on('goaway', () => this.retire());
    session.on('error', (err: Error) => this.end(err));
    session.on('close', () => this.end(SESSION_CLOSED()));
  }

  /**
   * The TLS socket under an h2 session: the target's guarded lookup and TLS options, ALPN h2 only,
   * its connect and handshake timed into the phase's figures as undici's are (connect-timing.ts).
   */
  private tlsSocket(url: URL): TLSSocket {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const start = nowUs();
    const socket = tlsConnect({
      host,
      port: Number(url.port || 443),
      lookup: this.target.lookup,
      ALPNProtocols: ['h2'],
      // an IP address is sent as no SNI name; node then checks the certificate against the IP
      ...(isIP(host) === 0 && { servername: host }),
      ...this.target.tls,
    });
    if (this.times !== null) recordTlsConnect(socket, this.times, start);
    return socket;
  }

  /** Sends waiting requests while a stream is free. */
  private pump(): void {
    const session = this.session;
    if (session === null || !this.ready || session.destroyed || !this.open) return;
    while (this.waiting.length > 0 && this.busy.size < this.limit) {
      const { request, handler } = this.waiting.shift()!;
      this.start(session, request, handler);
    }
  }

  /** Opens the request's stream now: HEADERS (and its body) written, onConnect told. */
  private start(session: ClientHttp2Session, request: H2Request, handler: RequestHandler): void {
    // destroyed, its 'error' or 'close' still to come: the request waits here and fails with the session's reason
    if (session.destroyed || session.closed) return void this.waiting.push({ request, handler });
    let stream: ClientHttp2Stream;
    try {
      stream = session.request(request.headers, { endStream: request.body === null });
    } catch (err) {
      // node refused the stream (the session went while we looked): a reset, as any request on a session that ended
      const why = err instanceof Error ? Object.assign(err, { code: 'UND_ERR_SOCKET' }) : SESSION_CLOSED();
      return void process.nextTick(() => handler.onError(why));
    }
    const call = this.idle.pop() ?? new Call(this);
    call.stream = stream;
    call.handler = handler;
    call.ended = false;
    this.busy.add(call);
    stream.on('response', call.onResponse);
    stream.on('data', call.onData);
    stream.on('end', call.onEnd);
    stream.on('error', call.onError);
    stream.on('close', call.onClose);
    handler.onConnect(call.reset);
    if (request.body !== null) stream.end(request.body);
  }

  /** a call ended: its stream is free for the next waiting request */
  released(call: Call): void {
    this.busy.delete(call);
    call.stream?.off('error', call.onError);
    call.stream?.on('error', swallow);
    call.stream = null;
    this.idle.push(call);
    if (this.waiting.length > 0) queueMicrotask(() => this.pump());
    else if (this.closing && this.busy.size === 0) this.session?.close();
  }

  /**
   * The response headers the driver reads as undici's name/value pairs, as undici's h2 client gives
   * them: each name once, repeated fields joined by node (set-cookie apart). Only Server-Timing
   * unless the phase reads others (the fast path's rule, h1.ts).
   */
  headerPairs(headers: IncomingHttpHeaders): Buffer[] {
    let pairs = NO_PAIRS;
    for (const name in headers) {
      if (name.charCodeAt(0) === 0x3a || (!this.allHeaders && name !== 'server-timing')) continue;
      if (pairs === NO_PAIRS) pairs = [];
      const v = headers[name]!;
      // the one name read on every response is shared (the slot only reads the pairs)
      const key = name === 'server-timing' ? SERVER_TIMING : Buffer.from(name, 'latin1');
      if (typeof v === 'string') pairs.push(key, Buffer.from(v, 'latin1'));
      else for (const value of v) pairs.push(key, Buffer.from(value, 'latin1'));
    }
    return pairs;
  }

  /** GOAWAY: no new streams here; waiting requests go to the transport, those in flight end as the server lets them. */
  private retire(): void {
    if (!this.open) return;
    this.open = false;
    this.closing = true;
    const waiting = this.waiting.splice(0);
    this.owner.retired(this, waiting);
    if (this.busy.size === 0) this.session?.close();
  }

  /** The session ended (error, close, connect timeout): everything on it fails with `err` (on a later turn when `later`). */
  private end(err: Error, later = false): void {
    if (this.closedWith !== null) return;
    this.closedWith = err;
    if (this.connectTimer !== null) clearTimeout(this.connectTimer);
    const wasOpen = this.open;
    this.open = false;
    const waiting = this.waiting.splice(0);
    const calls = [...this.busy];
    if (wasOpen) this.owner.retired(this, []);
    this.owner.ended(this);
    const fail = (): void => {
      for (const call of calls) call.finish(err);
      for (const w of waiting) w.handler.onError(err);
    };
    if (later) process.nextTick(fail);
    else fail();
    this.session?.destroy();
  }

  close(): void {
    this.closing = true;
    this.open = false;
    if (this.busy.size === 0 && this.waiting.length === 0) this.session?.close();
  }

  /** Drops the session now; a request in flight fails on a later turn, as undici's destroy. */
  destroy(err?: Error): void {
    this.open = false;
    this.end(err ?? codeError('UND_ERR_DESTROYED', 'the connection was destroyed'), true);
  }
}

/** no header the driver reads: shared, never written to */
const NO_PAIRS: Buffer[] = [];
const SERVER_TIMING = Buffer.from('server-timing', 'latin1');
