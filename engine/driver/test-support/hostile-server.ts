import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

// A raw TCP target on 127.0.0.1 (port 0) that answers each HTTP/1.1 request in one hostile way, for
// the framing tests of the driver's fast path against undici (issue 35). Every answer names the
// request it answers (`answer to <path>`), so a client that reads bytes meant for another request
// (or never meant at all: the stray 201) shows it.
//
//   control                    a well-formed answer (Content-Length)
//   extra-after-body           the answer, then a stray complete 201 in the same write
//   before-request             the answer; sendStray() then sends a stray 201 while the client is idle
//   content-length-differing   two Content-Length headers: the body's length, then 3 more
//   content-length-non-digit   `Content-Length: <n>abc`
//   chunk-no-crlf              chunked, the chunk's data followed by `XX` instead of CRLF
//   chunk-size-cr              chunked, size `1\r0` (16 if the CR were skipped) and 16 bytes of data
//   status-4-digit             `HTTP/1.1 2000 OK`
//   chunk-size-oversize        chunked, a 72-bit chunk size

export const HOSTILE_MODES = [
  'control',
  'extra-after-body',
  'before-request',
  'content-length-differing',
  'content-length-non-digit',
  'chunk-no-crlf',
  'chunk-size-cr',
  'status-4-digit',
  'chunk-size-oversize',
] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

/** The answer no request asked for: a client that reports it as a success desynchronised. */
export const STRAY = 'HTTP/1.1 201 Created\r\nContent-Length: 5\r\n\r\nstray';

/** What an answer to `path` says, so a client can tell whose answer it read. */
export const answerTo = (path: string): string => `answer to ${path}`;

/** The bytes `mode` answers a request for `path` with (a stray sent later is the server's doing). */
export function hostileAnswer(mode: HostileMode, path: string): string {
  const body = answerTo(path);
  const n = body.length;
  switch (mode) {
    case 'control':
    case 'before-request':
      return `HTTP/1.1 200 OK\r\nContent-Length: ${n}\r\n\r\n${body}`;
    case 'extra-after-body':
      return `HTTP/1.1 200 OK\r\nContent-Length: ${n}\r\n\r\n${body}${STRAY}`;
    case 'content-length-differing':
      return `HTTP/1.1 200 OK\r\nContent-Length: ${n}\r\nContent-Length: ${n + 3}\r\n\r\n${body}`;
    case 'content-length-non-digit':
      return `HTTP/1.1 200 OK\r\nContent-Length: ${n}abc\r\n\r\n${body}`;
    case 'chunk-no-crlf':
      return `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${n.toString(16)}\r\n${body}XX0\r\n\r\n`;
    case 'chunk-size-cr':
      return `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r0\r\n${body.padEnd(16, '.').slice(0, 16)}\r\n0\r\n\r\n`;
    case 'status-4-digit':
      return `HTTP/1.1 2000 OK\r\nContent-Length: ${n}\r\n\r\n${body}`;
    case 'chunk-size-oversize':
      return `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n${body}\r\n0\r\n\r\n`;
  }
}

export interface HostileServer {
  url: string;
  /** requests read, by path, in order */
  readonly paths: string[];
  /** the connection (1, 2, ...) each request came on, in order */
  readonly connectionOf: number[];
  /** connections accepted */
  connections(): number;
  /** writes a stray answer on every open connection (the test calls it while its client is idle) */
  sendStray(): void;
  /** resolves once connection `n` is accepted */
  accepted(n: number): Promise<void>;
  /** resolves once the client has closed connection `n` (its 'close' on the server's side) */
  clientClosed(n: number): Promise<void>;
  close(): Promise<void>;
}

/** A request head is at most this long; a longer one ends its connection (a fixture bounds its buffers too). */
const MAX_REQUEST_HEAD = 16 * 1024;

export interface HostileOptions {
  /** write each answer a byte at a time, a turn apart, so a client's parser sees every split */
  dribble?: boolean;
  /** answer over TLS with this key and certificate (an https:// url; issue 42), the same bytes inside */
  tls?: { key: string; cert: string };
}

/** A server answering as `mode` does, or with `answer(path)`'s bytes. */
export async function startHostileServer(mode: HostileMode | ((path: string) => string), options: HostileOptions = {}): Promise<HostileServer> {
  const answer = typeof mode === 'function' ? mode : (path: string) => hostileAnswer(mode, path);
  const paths: string[] = [];
  const connectionOf: number[] = [];
  const sockets = new Set<Socket>();
  const closed = new Map<number, () => void>();
  const closedAlready = new Set<number>();
  let accepted = 0;
  const onAccept = new Map<number, () => void>();
  const onConnection = (s: Socket): void => {
    const n = ++accepted;
    sockets.add(s);
    onAccept.get(n)?.();
    s.on('error', () => undefined);
    s.on('close', () => {
      sockets.delete(s);
      closedAlready.add(n);
      closed.get(n)?.();
    });
    let pending = '';
    s.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      if (pending.length > MAX_REQUEST_HEAD) return s.destroy();
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const path = pending.slice(0, pending.indexOf('\r\n')).split(' ')[1] ?? '/';
        pending = pending.slice(end + 4);
        paths.push(path);
        connectionOf.push(n);
        if (options.dribble === true) void dribble(s, answer(path));
        else s.write(answer(path), 'latin1');
      }
    });
  };
  // over TLS a connection counts from its handshake's end, where its bytes start
  const server: Server = options.tls === undefined ? createServer(onConnection) : createTlsServer(options.tls, onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    connectionOf,
    connections: () => accepted,
    accepted: (n) => (accepted >= n ? Promise.resolve() : new Promise<void>((resolve) => onAccept.set(n, resolve))),
    sendStray: () => {
      for (const s of sockets) s.write(STRAY, 'latin1');
    },
    clientClosed: (n) => (closedAlready.has(n) ? Promise.resolve() : new Promise<void>((resolve) => closed.set(n, resolve))),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function dribble(s: Socket, bytes: string): Promise<void> {
  for (const c of bytes) {
    if (s.destroyed) return;
    s.write(c, 'latin1');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
