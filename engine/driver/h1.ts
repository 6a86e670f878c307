import { connect, type Socket } from 'node:net';
import { targetLookup } from '../net/target-guard.js';
import type { Phase } from '../../contract/scenario.js';
import { nameIs } from './server-timing.js';
import { fixedTemplate, isVariable, VariableRequest } from './request-compile.js';

// A minimal HTTP/1.1 keep-alive connection for the driver's common case (plain http, keep-alive,
// ordinary headers): the request bytes are built once per template and written as one Buffer, and
// the response is parsed in place (status, content-length / chunked / until close, Connection:
// close, Server-Timing). undici rebuilds and re-validates every request and runs a general parser;
// that was most of the driver's CPU per request. Anything unusual (https, keepAlive: false, odd
// headers) still goes through undici (see group.ts). Errors carry undici's / Node's codes, so
// classifyError treats both paths alike.
//
//   dispatch -> [connect] -> write(request) ─ onConnect
//   data -> HEAD (until CRLFCRLF) ─ onHeaders -> BODY (length | chunked | until close) ─ onData* -> onComplete
//   error / close / inactivity timeout while a request is in flight -> onError(code)

export interface H1Handler {
  onConnect(): void;
  /** rawHeaders holds only the headers the driver reads (Server-Timing), as undici's name/value pairs */
  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(): void;
  onError(err: Error): void;
}

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
 * The prebuilt requests of a phase, or null when the phase needs undici (https, no keep-alive,
 * unusual headers). A template with placeholders gets its compiled form; `columns` are the phase's
 * data file's.
 */
export function compileH1(phase: Phase, baseUrl: string, columns: readonly string[] = []): H1Request[] | null {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || !phase.keepAlive || (url.pathname !== '/' && url.pathname !== '')) return null;
  const out: H1Request[] = [];
  for (const template of phase.requests) {
    if (isVariable(template)) {
      const checked = { ...template, path: template.path.replace(PLACEHOLDER, 'x'), headers: Object.fromEntries(Object.entries(template.headers).map(([n, v]) => [n, v.replace(PLACEHOLDER, 'x')])) };
      if (!fastPathHeaders(checked.path, checked.headers)) return null;
      out.push({ bytes: Buffer.alloc(0), head: template.method === 'HEAD', variable: new VariableRequest(template, url.host, columns) });
      continue;
    }
    const t = fixedTemplate(template);
    if (!fastPathHeaders(t.path, t.headers)) return null;
    let head = `${t.method} ${t.path} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const [name, value] of Object.entries(t.headers)) head += `${name}: ${value}\r\n`;
    const body = t.body === undefined ? null : Buffer.from(t.body);
    if (body !== null || PAYLOAD_METHODS.has(t.method)) head += `content-length: ${body?.length ?? 0}\r\n`;
    head += '\r\n';
    const headBytes = Buffer.from(head, 'latin1');
    out.push({ bytes: body === null ? headBytes : Buffer.concat([headBytes, body]), head: t.method === 'HEAD', variable: null });
  }
  return out;
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

/** ASCII lower case of a letter byte (other bytes: only compared against letters) */
const lower = (c: number): number => c | 0x20;
const CR = 0x0d;
const LF = 0x0a;
const CRLFCRLF = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;

const S_IDLE = 0;
const S_CONNECTING = 1;
const S_HEAD = 2;
const S_LENGTH = 3;
const S_CHUNK_SIZE = 4;
const S_CHUNK_DATA = 5;
const S_CHUNK_CRLF = 6;
const S_TRAILERS = 7;
const S_UNTIL_CLOSE = 8;


export class H1Connection {
  private socket: Socket | null = null;
  private handler: H1Handler | null = null;
  private request: H1Request | null = null;
  private state = S_IDLE;
  private partial: Buffer | null = null;
  private remaining = 0;
  private closeAfter = false;
  private chunkSize = 0;
  private chunkDigits = 0;
  private inExtension = false;
  private trailerLine = 0;
  private readonly timing: Buffer[] = [];
  private readonly host: string;
  private readonly port: number;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    const url = new URL(baseUrl);
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port || 80);
  }

  dispatch(request: H1Request, handler: H1Handler): void {
    this.handler = handler;
    this.request = request;
    const s = this.socket;
    if (s !== null && !s.destroyed && s.writable && !s.connecting) {
      this.send(s);
      return;
    }
    // still connecting (opened ahead by open()): the 'connect' listener sends; sent is stamped then
    this.state = S_CONNECTING;
    if (s === null || s.destroyed || !s.connecting) this.connect();
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
        socket.off('connect', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('connect', done);
      socket.on('close', done);
    });
  }

  private connect(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true, lookup: targetLookup() });
    this.socket = socket;
    socket.setTimeout(this.timeoutMs);
    socket.on('connect', () => {
      if (this.socket === socket && this.state === S_CONNECTING) this.send(socket);
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.socket === socket) this.onBytes(chunk);
    });
    socket.on('timeout', () => {
      if (this.socket !== socket || this.handler === null) return;
      const code = this.state === S_CONNECTING ? 'UND_ERR_CONNECT_TIMEOUT' : this.state === S_HEAD ? 'UND_ERR_HEADERS_TIMEOUT' : 'UND_ERR_BODY_TIMEOUT';
      this.fail(codeError(code, 'timeout'));
    });
    socket.on('error', (err: Error) => {
      if (this.socket === socket) this.fail(err);
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.handler === null) return;
      if (this.state === S_UNTIL_CLOSE) this.complete();
      else this.fail(codeError('UND_ERR_SOCKET', 'other side closed'));
    });
    return socket;
  }

  /** Drops the connection; a request in flight fails (on a later turn, like undici's destroy). */
  destroy(): void {
    const handler = this.handler;
    this.handler = null;
    this.state = S_IDLE;
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
    this.state = S_HEAD;
    this.partial = null;
    this.handler!.onConnect();
    s.write(this.request!.bytes);
  }

  private fail(err: Error): void {
    const handler = this.handler;
    this.handler = null;
    this.state = S_IDLE;
    const s = this.socket;
    this.socket = null;
    s?.destroy();
    handler?.onError(err);
  }

  private complete(): void {
    const handler = this.handler!;
    this.handler = null;
    this.state = S_IDLE;
    if (this.closeAfter) {
      this.socket?.end();
      this.socket = null;
    }
    // may dispatch the next request on this connection, synchronously
    handler.onComplete();
  }

  private onBytes(chunk: Buffer): void {
    let b = chunk;
    let i = 0;
    while (i < b.length && this.handler !== null) {
      switch (this.state) {
        case S_HEAD: {
          if (this.partial !== null) {
            b = Buffer.concat([this.partial, b.subarray(i)]);
            i = 0;
            this.partial = null;
          }
          const end = b.indexOf(CRLFCRLF, i);
          if (end < 0) {
            if (b.length - i > MAX_HEAD) return this.fail(codeError('UND_ERR_HEADERS_OVERFLOW', 'response head too large'));
            this.partial = b.subarray(i);
            return;
          }
          const next = this.parseHead(b, i, end);
          if (next < 0) return;
          i = next;
          break;
        }
        case S_LENGTH: {
          const n = Math.min(this.remaining, b.length - i);
          this.handler.onData(b.subarray(i, i + n));
          i += n;
          this.remaining -= n;
          if (this.remaining === 0) this.complete();
          break;
        }
        case S_UNTIL_CLOSE:
          this.handler.onData(i === 0 ? b : b.subarray(i));
          i = b.length;
          break;
        case S_CHUNK_SIZE: {
          const c = b[i++]!;
          if (c === LF) {
            if (this.chunkDigits === 0) return this.fail(codeError('HPE_INVALID_CHUNK_SIZE', 'bad chunk size'));
            const size = this.chunkSize;
            this.chunkSize = 0;
            this.chunkDigits = 0;
            this.inExtension = false;
            if (size === 0) {
              this.state = S_TRAILERS;
              this.trailerLine = 0;
            } else {
              this.remaining = size;
              this.state = S_CHUNK_DATA;
            }
          } else if (c !== CR && !this.inExtension) {
            const l = lower(c);
            const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
            if (d >= 0) {
              this.chunkSize = this.chunkSize * 16 + d;
              this.chunkDigits++;
            } else if (c === 0x3b || c === 0x20 || c === 0x09) this.inExtension = true;
            else return this.fail(codeError('HPE_INVALID_CHUNK_SIZE', 'bad chunk size'));
          }
          break;
        }
        case S_CHUNK_DATA: {
          const n = Math.min(this.remaining, b.length - i);
          this.handler.onData(b.subarray(i, i + n));
          i += n;
          this.remaining -= n;
          if (this.remaining === 0) this.state = S_CHUNK_CRLF;
          break;
        }
        case S_CHUNK_CRLF:
          if (b[i++] === LF) this.state = S_CHUNK_SIZE;
          break;
        case S_TRAILERS: {
          const c = b[i++]!;
          if (c === LF) {
            if (this.trailerLine === 0) this.complete();
            this.trailerLine = 0;
          } else if (c !== CR) this.trailerLine++;
          break;
        }
        default:
          // bytes with no request waiting for them (pipelining is 1): the connection is out of step
          return this.fail(codeError('UND_ERR_SOCKET', 'unexpected data'));
      }
    }
  }

  /** Parses the head in b[start, end) (end = index of CRLFCRLF); returns where the body starts, or -1 after failing. */
  private parseHead(b: Buffer, start: number, end: number): number {
    // HTTP/1.x SSS
    if (end - start < 12 || b[start] !== 0x48 || b[start + 4] !== 0x2f || b[start + 8] !== 0x20) {
      this.fail(codeError('HPE_INVALID_CONSTANT', 'bad status line'));
      return -1;
    }
    const d0 = b[start + 9]! - 0x30;
    const d1 = b[start + 10]! - 0x30;
    const d2 = b[start + 11]! - 0x30;
    if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
      this.fail(codeError('HPE_INVALID_STATUS', 'bad status code'));
      return -1;
    }
    const status = d0 * 100 + d1 * 10 + d2;
    const bodyStart = end + 4;
    if (status < 200) return bodyStart; // an interim response: the real one follows
    let length = -1;
    let chunked = false;
    this.closeAfter = b[start + 7] === 0x30; // HTTP/1.0
    const timing = this.timing;
    timing.length = 0;
    let line = b.indexOf(LF, start) + 1;
    while (line < end + 2) {
      let eol = b.indexOf(LF, line);
      if (eol < 0 || eol > end + 2) eol = end + 2;
      const colon = b.indexOf(0x3a, line);
      if (colon > 0 && colon < eol) {
        let vs = colon + 1;
        while (b[vs] === 0x20 || b[vs] === 0x09) vs++;
        let ve = eol;
        while (ve > vs && (b[ve - 1] === CR || b[ve - 1] === 0x20 || b[ve - 1] === 0x09)) ve--;
        const first = lower(b[line]!);
        if (first === 0x63 && nameIs(b, line, colon, 'content-length')) {
          let n = 0;
          for (let k = vs; k < ve; k++) n = n * 10 + (b[k]! - 0x30);
          length = n;
        } else if (first === 0x74 && nameIs(b, line, colon, 'transfer-encoding')) {
          chunked = ve - vs >= 7 && nameIs(b, ve - 7, ve, 'chunked');
        } else if (first === 0x63 && nameIs(b, line, colon, 'connection')) {
          this.closeAfter = ve - vs === 5 && nameIs(b, vs, ve, 'close');
        } else if (first === 0x73 && nameIs(b, line, colon, 'server-timing')) {
          timing.push(b.subarray(line, colon), b.subarray(vs, ve));
        }
      }
      line = eol + 1;
    }
    this.handler!.onHeaders(status, timing);
    if (this.request!.head || status === 204 || status === 304 || (!chunked && length === 0)) {
      this.complete();
    } else if (chunked) {
      this.state = S_CHUNK_SIZE;
      this.chunkSize = 0;
      this.chunkDigits = 0;
      this.inExtension = false;
    } else if (length > 0) {
      this.state = S_LENGTH;
      this.remaining = length;
    } else {
      this.state = S_UNTIL_CLOSE;
      this.closeAfter = true;
    }
    return bodyStart;
  }
}
