import type { Socket } from 'node:net';
import type { ConnectRecorder } from './connect-timing.js';
import type { RequestHandler } from './connection.js';
import { dataBytes, DEFAULT_MAX_FRAME, DEFAULT_WINDOW, FLAG, FRAME, goaway, H2_CODE, headersBytes, MAX_WINDOW, pingAck, prefaceBytes, rstStream, SETTING, SETTINGS_ACK, windowUpdate } from './fast-h2-frames.js';
import { blockOf, MAX_HEADER_LIST, ResponseHead } from './fast-h2-fields.js';
import { HpackError } from './fast-h2-hpack.js';
import { FrameParser, H2ConnectionError, type FrameSink } from './fast-h2-parser.js';
import { h1EndpointOf } from './h1-endpoint.js';
import { H2_WINDOW, type H2Request, type H2Session, type SessionOwner, type Waiting } from './node-h2-session.js';
import type { Target } from './target.js';

// One HTTP/2 connection spoken frame by frame on a net / tls socket (issue 42): what
// node-h2-session.ts does on node:http2, without a Duplex, an AsyncResource and events per request.
// The same contract to its transport (H2Session): at most `streams` requests at once (fewer when
// the server's SETTINGS_MAX_CONCURRENT_STREAMS says so), nothing sent before the server's SETTINGS,
// a request beyond the limit waiting here unsent (client queue), GOAWAY retiring the session, the
// same error codes (measure/errors.ts) and both receive windows at 2^30-1.
//
//   connect ─ preface + SETTINGS + WINDOW_UPDATE ─ [server SETTINGS: ack, limit] ─ waiting (FIFO) ─ start():
//     HEADERS (the template's block, encoded once) ─ onConnect(reset) ─ DATA within the peer's windows
//   frames (fast-h2-parser.ts) ─ HEADERS: HPACK (fast-h2-hpack.ts) ─ onHeaders ─ DATA: onData* ─ END_STREAM: onComplete
//   a stream's breach: RST_STREAM, that request fails (protocol); the connection's: GOAWAY, all on it fail
//
// Bounds: a frame 16 KiB (never raised), a header block MAX_HEADER_BLOCK compressed and
// MAX_HEADER_LIST decoded (as advertised), MAX_HEADER_PAIRS fields, the HPACK table 4 KiB, control
// frames (PING, SETTINGS, empty DATA) at most MAX_IDLE_CONTROL between two answers, what we queue on
// an unread socket MAX_OUTBOUND; every request's deadline is its group's (the reset below).

/** A request as the fast transport gives it: its header block encoded once per template (absent: encoded here). */
export interface FastH2Request extends H2Request {
  readonly block?: Buffer;
}

/** PING / SETTINGS / empty DATA frames in a row with no response progress: past it, a flood (nghttp2 ends such a session too) */
const MAX_IDLE_CONTROL = 10_000;
/** our writes queued on a socket the server does not read, as it asks for more acks: past it, a flood */
const MAX_OUTBOUND = 4 * 1024 * 1024;
const LAST_STREAM_ID = 2 ** 31 - 1;
const CODE_NAMES: Record<number, string> = { 0: 'NO_ERROR', 1: 'PROTOCOL_ERROR', 2: 'INTERNAL_ERROR', 3: 'FLOW_CONTROL_ERROR', 4: 'SETTINGS_TIMEOUT', 5: 'STREAM_CLOSED', 6: 'FRAME_SIZE_ERROR', 7: 'REFUSED_STREAM', 8: 'CANCEL', 9: 'COMPRESSION_ERROR', 10: 'CONNECT_ERROR', 11: 'ENHANCE_YOUR_CALM', 12: 'INADEQUATE_SECURITY', 13: 'HTTP_1_1_REQUIRED' };
/** a peer's reset for breaking the protocol (node-h2-session.ts's PROTOCOL_RESET): counted as protocol, else as a reset */
const PROTOCOL_CODES = new Set<number>([H2_CODE.PROTOCOL_ERROR, H2_CODE.FLOW_CONTROL_ERROR, H2_CODE.FRAME_SIZE_ERROR, H2_CODE.COMPRESSION_ERROR, H2_CODE.ENHANCE_YOUR_CALM]);

const codeError = (code: string, message: string): Error => Object.assign(new Error(message), { code });
const SESSION_CLOSED = (): Error => codeError('UND_ERR_SOCKET', 'the HTTP/2 session ended');
/** a stream the peer reset, as node:http2 words it */
const peerReset = (code: number): Error => codeError(PROTOCOL_CODES.has(code) ? 'LS_H2_PROTOCOL' : 'ERR_HTTP2_STREAM_ERROR', `Stream closed with error code NGHTTP2_${CODE_NAMES[code] ?? code}`);
/** a stream we reset for its response breaking the protocol */
const streamBreach = (why: string): Error => codeError('LS_H2_PROTOCOL', `the server broke HTTP/2 on a stream: ${why}`);

/** One request on the connection; pooled (at most `streams`), so a request allocates no closures. */
class Call {
  id = 0;
  handler: RequestHandler | null = null;
  /** the final response headers came (a HEADERS after them is trailers) */
  answered = false;
  head = false;
  /** the response's content-length (-1: none); its DATA bytes so far */
  expected = -1;
  received = 0;
  /** received bytes not yet given back by a WINDOW_UPDATE */
  unacked = 0;
  sendWindow = 0;
  /** the request body still to send, from `offset` (null: all sent) */
  body: Buffer | null = null;
  offset = 0;
  /** the request's reset (its deadline's): RST_STREAM CANCEL, the connection kept */
  readonly reset = (err?: Error): void => {
    if (this.handler === null) return;
    this.session.resetCall(this, H2_CODE.CANCEL, err ?? codeError('UND_ERR_ABORTED', 'the request was reset'));
  };

  constructor(private readonly session: FastH2Session) {}
}

export class FastH2Session implements H2Session, FrameSink {
  private socket: Socket | null = null;
  private readonly parser = new FrameParser(this);
  private readonly head = new ResponseHead();
  private readonly waiting: Waiting[] = [];
  private readonly idle: Call[] = [];
  private readonly active = new Map<number, Call>();
  /** calls whose body waits for a window */
  private readonly blocked = new Set<Call>();
  private limit: number;
  private open = true;
  private ready = false;
  private closing = false;
  closedWith: Error | null = null;
  private connectTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  /** the server's SETTINGS as they apply to what we send */
  private peerMaxFrame = DEFAULT_MAX_FRAME;
  private peerInitialWindow = DEFAULT_WINDOW;
  private connSendWindow = DEFAULT_WINDOW;
  private connUnacked = 0;
  private idleControl = 0;

  constructor(
    private readonly target: Target,
    private readonly timeoutMs: number,
    private readonly streams: number,
    private readonly owner: SessionOwner,
    /** where an https session's connect and handshake times go (null: not measured) */
    private readonly times: ConnectRecorder | null,
  ) {
    this.limit = streams;
  }

  dispatch(request: H2Request, handler: RequestHandler): void {
    if (!this.open) return void process.nextTick(() => handler.onError(this.closedWith ?? SESSION_CLOSED()));
    if (this.ready && this.waiting.length === 0 && this.active.size < this.limit) return this.start(request, handler);
    this.waiting.push({ request, handler });
    if (this.socket === null) this.connect();
  }

  unqueue(handler: RequestHandler): boolean {
    const i = this.waiting.findIndex((w) => w.handler === handler);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  private connect(): void {
    const endpoint = h1EndpointOf(this.target, this.times, ['h2']);
    const socket = endpoint.connect();
    this.socket = socket;
    this.connectTimer = setTimeout(() => this.end(codeError('UND_ERR_CONNECT_TIMEOUT', 'the HTTP/2 session did not connect (or the server sent no SETTINGS) in time')), this.timeoutMs);
    socket.once(endpoint.ready, () => {
      if (endpoint.ready === 'secureConnect' && (socket as Socket & { alpnProtocol?: string | false }).alpnProtocol !== 'h2') {
        return this.end(codeError('ERR_HTTP2_ERROR', 'the server did not agree to h2 by ALPN'));
      }
      socket.write(prefaceBytes([[SETTING.ENABLE_PUSH, 0], [SETTING.INITIAL_WINDOW_SIZE, H2_WINDOW], [SETTING.MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST]], H2_WINDOW));
    });
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (err: Error) => this.end(err));
    socket.on('close', () => this.end(SESSION_CLOSED()));
  }

  private read(chunk: Buffer): void {
    const socket = this.socket!;
    socket.cork();
    try {
      this.parser.push(chunk);
    } catch (err) {
      // the server's breach ends the connection; anything else is ours, and is thrown on
      if (!(err instanceof H2ConnectionError || err instanceof HpackError)) throw err;
      const breach = err instanceof H2ConnectionError ? err : new H2ConnectionError(H2_CODE.COMPRESSION_ERROR, err.message);
      this.write(goaway(0, breach.h2Code));
      this.end(breach);
    }
    socket.uncork();
  }

  private write(bytes: Buffer): void {
    const socket = this.socket;
    // after our GOAWAY and FIN (goodbye) nothing more goes: a write after end would be an error of ours
    if (socket === null || socket.destroyed || socket.writableEnded) return;
    socket.write(bytes);
  }

  /**
   * Writes an acknowledgement the server asked for (PING, SETTINGS): one that leaves over
   * MAX_OUTBOUND of ours unread while it asks for more is flooding. (Request bodies are bounded by
   * the server's own windows and the request size, so only what the server makes us send is held here.)
   */
  private ack(bytes: Buffer): void {
    if ((this.socket?.writableLength ?? 0) > MAX_OUTBOUND) throw new H2ConnectionError(H2_CODE.ENHANCE_YOUR_CALM, `over ${MAX_OUTBOUND} bytes of ours left unread by the server while it asks for more`);
    this.write(bytes);
  }

  /** a control frame that moved no response on: a flood past the bound ends the connection */
  private control(): void {
    if (++this.idleControl > MAX_IDLE_CONTROL) throw new H2ConnectionError(H2_CODE.ENHANCE_YOUR_CALM, `over ${MAX_IDLE_CONTROL} control frames with no response moving`);
  }

  /** Sends waiting requests while a stream is free. */
  private pump(): void {
    if (!this.ready || !this.open) return;
    this.socket?.cork();
    while (this.waiting.length > 0 && this.active.size < this.limit && this.open) {
      const { request, handler } = this.waiting.shift()!;
      this.start(request, handler);
    }
    this.socket?.uncork();
  }

  /** Opens the request's stream now: HEADERS (and what the windows let of its body) written, onConnect told. */
  private start(request: FastH2Request, handler: RequestHandler): void {
    const call = this.idle.pop() ?? new Call(this);
    const id = this.nextId;
    this.nextId += 2;
    call.id = id;
    call.handler = handler;
    call.answered = false;
    call.head = request.headers[':method'] === 'HEAD';
    call.expected = -1;
    call.received = 0;
    call.unacked = 0;
    call.sendWindow = this.peerInitialWindow;
    call.body = request.body;
    call.offset = 0;
    this.active.set(id, call);
    handler.onConnect(call.reset);
    const block = request.block ?? blockOf(request);
    this.write(headersBytes(id, block, request.body === null, this.peerMaxFrame));
    if (request.body !== null) this.sendBody(call);
    // stream ids are spent: the next request goes on a new connection
    if (this.nextId > LAST_STREAM_ID) this.retire();
  }

  /** Sends what the windows let of a call's body; the rest waits for a WINDOW_UPDATE. */
  private sendBody(call: Call): void {
    const body = call.body!;
    while (call.offset < body.length || body.length === 0) {
      const n = Math.min(body.length - call.offset, call.sendWindow, this.connSendWindow, this.peerMaxFrame);
      if (n <= 0 && body.length > 0) return void this.blocked.add(call);
      const end = call.offset + n === body.length;
      this.write(dataBytes(call.id, body.subarray(call.offset, call.offset + n), end));
      call.offset += n;
      call.sendWindow -= n;
      this.connSendWindow -= n;
      if (end) break;
    }
    call.body = null;
    this.blocked.delete(call);
  }

  private unblock(): void {
    for (const call of this.blocked) {
      if (this.connSendWindow <= 0) return;
      if (call.sendWindow > 0) this.sendBody(call);
    }
  }

  onData(stream: number, data: Buffer, end: boolean, flowBytes: number): void {
    if (this.closedWith !== null) return;
    this.connUnacked += flowBytes;
    if (this.connUnacked >= H2_WINDOW / 2) {
      this.write(windowUpdate(0, this.connUnacked));
      this.connUnacked = 0;
    }
    const call = this.callOf(stream);
    if (call === null) return;
    if (!call.answered) return this.streamError(call, 'DATA before the response headers');
    if (data.length === 0 && !end) this.control();
    call.received += data.length;
    if (call.expected >= 0 && call.received > call.expected) return this.streamError(call, `more body than its content-length ${call.expected}`);
    if (end && call.expected >= 0 && call.received !== call.expected) return this.streamError(call, `a body of ${call.received} bytes, its content-length ${call.expected}`);
    if (data.length > 0) {
      this.idleControl = 0;
      call.handler!.onData(data);
    }
    if (end) return this.finish(call, null);
    call.unacked += flowBytes;
    if (call.unacked >= H2_WINDOW / 2) {
      this.write(windowUpdate(stream, call.unacked));
      call.unacked = 0;
    }
  }

  onHeaders(stream: number, block: Buffer, end: boolean): void {
    if (this.closedWith !== null) return;
    // every block goes through the decoder, even a reset stream's: the table is the connection's
    const d = this.head.read(block);
    const call = this.callOf(stream);
    if (call === null) return;
    if (d.breach !== null) return this.streamError(call, d.breach);
    this.idleControl = 0;
    if (call.answered) {
      // trailers: no pseudo-field, and the stream's end
      if (!end || d.status !== 0) return this.streamError(call, 'a second header block that is not trailers');
      if (call.expected >= 0 && call.received !== call.expected) return this.streamError(call, `a body of ${call.received} bytes, its content-length ${call.expected}`);
      return this.finish(call, null);
    }
    if (d.status < 100 || d.status > 999) return this.streamError(call, 'a response without a valid :status');
    if (d.status < 200) {
      // informational (1xx): the final response follows; 101 has no place in HTTP/2
      if (end || d.status === 101) return this.streamError(call, `an informational ${d.status} response ending its stream`);
      return;
    }
    call.answered = true;
    // a HEAD, 204 or 304 response has no body whatever its content-length says
    call.expected = call.head || d.status === 204 || d.status === 304 ? 0 : d.contentLength;
    call.handler!.onHeaders(d.status, d.timing === null ? NO_PAIRS : [SERVER_TIMING, Buffer.from(d.timing, 'latin1')]);
    if (end && call.handler !== null) {
      if (call.expected > 0) return this.streamError(call, `no body, its content-length ${call.expected}`);
      this.finish(call, null);
    }
  }

  onFrame(type: number, flags: number, stream: number, payload: Buffer): void {
    if (this.closedWith !== null) return;
    // the server's preface is a SETTINGS frame (RFC 9113 3.4)
    if (!this.ready && type !== FRAME.SETTINGS) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'a first frame that is not SETTINGS');
    switch (type) {
      case FRAME.SETTINGS:
        return this.onSettings(flags, stream, payload);
      case FRAME.PING:
        if (stream !== 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'PING on a stream');
        if (payload.length !== 8) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'PING not of 8 bytes');
        if (flags & FLAG.ACK) return;
        this.control();
        return this.ack(pingAck(payload));
      case FRAME.RST_STREAM: {
        if (stream === 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'RST_STREAM on stream 0');
        if (payload.length !== 4) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'RST_STREAM not of 4 bytes');
        const call = this.callOf(stream);
        if (call !== null) this.finish(call, peerReset(payload.readUInt32BE(0)));
        return;
      }
      case FRAME.WINDOW_UPDATE:
        return this.onWindowUpdate(stream, payload);
      case FRAME.GOAWAY:
        return this.onGoaway(stream, payload);
      case FRAME.PUSH_PROMISE:
        throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'PUSH_PROMISE with push disabled');
      default:
        // PRIORITY and unknown types are ignored (RFC 9113 5.5)
        return;
    }
  }

  private onSettings(flags: number, stream: number, payload: Buffer): void {
    if (stream !== 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & FLAG.ACK) {
      if (payload.length !== 0) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'a SETTINGS ack with a payload');
      return;
    }
    if (payload.length % 6 !== 0) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'SETTINGS not a multiple of 6 bytes');
    if (this.ready) this.control();
    for (let at = 0; at < payload.length; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === SETTING.ENABLE_PUSH && value > 1) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'SETTINGS_ENABLE_PUSH not 0 or 1');
      else if (id === SETTING.MAX_CONCURRENT_STREAMS) this.limit = Math.max(1, Math.min(this.streams, value));
      else if (id === SETTING.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new H2ConnectionError(H2_CODE.FLOW_CONTROL_ERROR, 'SETTINGS_INITIAL_WINDOW_SIZE over 2^31-1');
        // a change applies to every open stream's window (6.9.2)
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const call of this.active.values()) {
          call.sendWindow += delta;
          if (call.sendWindow > MAX_WINDOW) throw new H2ConnectionError(H2_CODE.FLOW_CONTROL_ERROR, 'a stream window over 2^31-1');
        }
      } else if (id === SETTING.MAX_FRAME_SIZE) {
        if (value < DEFAULT_MAX_FRAME || value > 2 ** 24 - 1) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, `SETTINGS_MAX_FRAME_SIZE ${value} out of range`);
        this.peerMaxFrame = value;
      }
    }
    this.ack(SETTINGS_ACK);
    this.unblock();
    if (!this.ready) {
      clearTimeout(this.connectTimer!);
      this.ready = true;
    }
    this.pump();
  }

  private onWindowUpdate(stream: number, payload: Buffer): void {
    if (payload.length !== 4) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'WINDOW_UPDATE not of 4 bytes');
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (stream === 0) {
      if (increment === 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'a connection WINDOW_UPDATE of 0');
      this.connSendWindow += increment;
      if (this.connSendWindow > MAX_WINDOW) throw new H2ConnectionError(H2_CODE.FLOW_CONTROL_ERROR, 'the connection window over 2^31-1');
      return this.unblock();
    }
    const call = this.callOf(stream);
    if (call === null) return;
    if (increment === 0) return this.streamError(call, 'a stream WINDOW_UPDATE of 0');
    call.sendWindow += increment;
    if (call.sendWindow > MAX_WINDOW) return this.streamError(call, 'a stream window over 2^31-1', H2_CODE.FLOW_CONTROL_ERROR);
    if (call.body !== null) this.sendBody(call);
  }

  /**
   * GOAWAY: streams above its last stream id were never processed and fail as refused; the others
   * end as the server lets them (an error code: the connection ends now, as node:http2's does).
   */
  private onGoaway(stream: number, payload: Buffer): void {
    if (stream !== 0) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, 'GOAWAY on a stream');
    if (payload.length < 8) throw new H2ConnectionError(H2_CODE.FRAME_SIZE_ERROR, 'GOAWAY under 8 bytes');
    const last = payload.readUInt32BE(0) & 0x7fffffff;
    const code = payload.readUInt32BE(4);
    for (const call of [...this.active.values()]) if (call.id > last) this.finish(call, peerReset(H2_CODE.REFUSED_STREAM));
    this.retire();
    if (code !== H2_CODE.NO_ERROR) this.end(codeError('ERR_HTTP2_SESSION_ERROR', `Session closed with error code ${code}`));
  }

  /** The open call of a stream id; null for one we closed (its late frames are dropped); an id we never opened is a breach. */
  private callOf(stream: number): Call | null {
    const call = this.active.get(stream);
    if (call !== undefined) return call;
    if ((stream & 1) === 0 || stream >= this.nextId) throw new H2ConnectionError(H2_CODE.PROTOCOL_ERROR, `a frame on stream ${stream}, which was never opened`);
    return null;
  }

  /** A stream's response broke the rules: RST_STREAM, that request fails as a protocol error. */
  private streamError(call: Call, why: string, code: number = H2_CODE.PROTOCOL_ERROR): void {
    this.resetCall(call, code, streamBreach(why));
  }

  resetCall(call: Call, code: number, err: Error): void {
    const id = call.id;
    this.finish(call, err);
    this.write(rstStream(id, code));
  }

  /** A call ended: its stream is free for the next waiting request; its handler hears last. */
  private finish(call: Call, err: Error | null): void {
    const h = call.handler;
    if (h === null) return;
    call.handler = null;
    // the response ended before all the body went: the rest is not sent (the stream is closed to us)
    if (err === null && call.body !== null) this.write(rstStream(call.id, H2_CODE.NO_ERROR));
    call.body = null;
    this.active.delete(call.id);
    this.blocked.delete(call);
    this.idle.push(call);
    if (this.waiting.length > 0) queueMicrotask(() => this.pump());
    else if (this.closing && this.active.size === 0) this.goodbye();
    if (err === null) h.onComplete();
    else h.onError(err);
  }

  /** GOAWAY (or stream ids spent): no new streams here; waiting requests go to the transport. */
  private retire(): void {
    if (!this.open) return;
    this.open = false;
    this.closing = true;
    this.owner.retired(this, this.waiting.splice(0));
    if (this.active.size === 0) this.goodbye();
  }

  /** Ends an idle connection politely: GOAWAY NO_ERROR, then FIN. */
  private goodbye(): void {
    const socket = this.socket;
    if (socket === null || socket.destroyed || socket.writableEnded) return;
    socket.end(goaway(0, H2_CODE.NO_ERROR));
    // a server that never closes its half: the socket goes anyway
    setTimeout(() => socket.destroy(), this.timeoutMs).unref();
  }

  /** The connection ended (error, close, connect timeout, a breach): everything on it fails with `err` (on a later turn when `later`). */
  private end(err: Error, later = false): void {
    if (this.closedWith !== null) return;
    this.closedWith = err;
    if (this.connectTimer !== null) clearTimeout(this.connectTimer);
    const wasOpen = this.open;
    this.open = false;
    const waiting = this.waiting.splice(0);
    const calls = [...this.active.values()];
    if (wasOpen) this.owner.retired(this, []);
    this.owner.ended(this);
    const fail = (): void => {
      for (const call of calls) this.finish(call, err);
      for (const w of waiting) w.handler.onError(err);
    };
    if (later) process.nextTick(fail);
    else fail();
    this.socket?.destroy();
  }

  close(): void {
    this.closing = true;
    this.open = false;
    if (this.active.size === 0 && this.waiting.length === 0) {
      if (this.socket === null) this.end(SESSION_CLOSED());
      else this.goodbye();
    }
  }

  destroy(err?: Error): void {
    this.open = false;
    this.end(err ?? codeError('UND_ERR_DESTROYED', 'the connection was destroyed'), true);
  }
}

const NO_PAIRS: Buffer[] = [];
const SERVER_TIMING = Buffer.from('server-timing', 'latin1');
