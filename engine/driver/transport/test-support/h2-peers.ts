import { createServer as createH2Server, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

// Hostile HTTP/2 peers on 127.0.0.1, written frame by frame over node:net (node:http2's server would
// not misbehave on request): each reads the client's preface and frames, and answers as its
// behaviour says. `written` counts what it sent; `clientClosed` is how many connections the client
// ended, which shows the client gave up on a peer that would have gone on for ever.

export const FRAME = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const;
export const FLAG = { END_STREAM: 1, ACK: 1, END_HEADERS: 4 } as const;
const PREFACE_BYTES = 24;

export function frame(type: number, flags: number, stream: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/** HPACK's integer with an n-bit prefix (RFC 7541 5.1), first byte's high bits from `mask` */
function hpackInt(v: number, n: number, mask: number): number[] {
  const max = (1 << n) - 1;
  if (v < max) return [mask | v];
  const out = [mask | max];
  v -= max;
  while (v >= 128) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A header block of literal fields, never indexed (no HPACK state on either side). */
export function literalHeaders(fields: readonly (readonly [string, string])[]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from([0x00, ...hpackInt(name.length, 7, 0)]), Buffer.from(name, 'latin1'));
    parts.push(Buffer.from(hpackInt(value.length, 7, 0)), Buffer.from(value, 'latin1'));
  }
  return Buffer.concat(parts);
}

/** SETTINGS with (id, value) pairs */
export function settings(pairs: readonly (readonly [number, number])[] = []): Buffer {
  const payload = Buffer.alloc(pairs.length * 6);
  pairs.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, i * 6);
    payload.writeUInt32BE(value, i * 6 + 2);
  });
  return frame(FRAME.SETTINGS, 0, 0, payload);
}

export interface PeerConnection {
  readonly socket: Socket;
  /** writes and counts */
  send(bytes: Buffer): boolean;
}

export interface Behaviour {
  /** the client's preface arrived */
  onPreface?(c: PeerConnection): void;
  /** a client frame (after the preface) */
  onFrame?(c: PeerConnection, type: number, flags: number, stream: number, payload: Buffer): void;
}

export interface RawH2Peer {
  readonly url: string;
  readonly stats: { written: number; connections: number; clientClosed: number; requests: number };
  close(): Promise<void>;
}

export async function startRawH2(behaviour: Behaviour): Promise<RawH2Peer> {
  const stats = { written: 0, connections: 0, clientClosed: 0, requests: 0 };
  const sockets = new Set<Socket>();
  let stopping = false;
  const server: Server = createServer((socket) => {
    stats.connections++;
    sockets.add(socket);
    let buf = Buffer.alloc(0);
    let preface = false;
    let closing = false;
    const c: PeerConnection = {
      socket,
      send: (bytes) => {
        if (socket.destroyed) return false;
        stats.written += bytes.length;
        return socket.write(bytes);
      },
    };
    socket.on('error', () => undefined);
    socket.on('end', () => {
      if (!closing) stats.clientClosed++;
      closing = true;
      socket.destroy();
    });
    socket.on('close', () => {
      if (!closing && !stopping) stats.clientClosed++;
      closing = true;
      sockets.delete(socket);
    });
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!preface) {
        if (buf.length < PREFACE_BYTES) return;
        buf = buf.subarray(PREFACE_BYTES);
        preface = true;
        behaviour.onPreface?.(c);
      }
      while (buf.length >= 9) {
        const length = buf.readUIntBE(0, 3);
        if (buf.length < 9 + length) return;
        const type = buf[3]!;
        const flags = buf[4]!;
        const stream = buf.readUInt32BE(5) & 0x7fffffff;
        const payload = buf.subarray(9, 9 + length);
        buf = buf.subarray(9 + length);
        if (type === FRAME.HEADERS) stats.requests++;
        behaviour.onFrame?.(c, type, flags, stream, payload);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        // the server's own teardown: not the client's doing
        stopping = true;
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The server's half of the handshake: its SETTINGS (with `pairs`) as the preface arrives. */
export function serverSettings(c: PeerConnection, pairs: readonly (readonly [number, number])[] = []): void {
  c.send(settings(pairs));
}

/** Acknowledges a client SETTINGS frame (a frame the behaviour was given). */
export function ackSettings(c: PeerConnection, type: number, flags: number): void {
  if (type === FRAME.SETTINGS && (flags & FLAG.ACK) === 0) c.send(frame(FRAME.SETTINGS, FLAG.ACK, 0));
}

/** Writes `next()` for ever, as fast as the socket drains, until the client goes or `cap` bytes were written. */
export function flood(c: PeerConnection, next: () => Buffer, cap: number): void {
  let sent = 0;
  const loop = (): void => {
    while (!c.socket.destroyed && sent < cap) {
      const bytes = next();
      sent += bytes.length;
      if (!c.send(bytes)) return void c.socket.once('drain', loop);
    }
  };
  loop();
}

/** What a route server answers on a path: the stream, and the request's whole body as text. */
export type H2Route = (stream: ServerHttp2Stream, body: string) => void;

/** A plain node:http2 server on 127.0.0.1 answering each path by its route once the request's body has ended. */
export async function routeServer(routes: Readonly<Record<string, H2Route>>): Promise<{ server: Http2Server; url: string }> {
  const server = createH2Server();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => routes[headers[':path'] as string]!(stream, Buffer.concat(chunks).toString()));
    stream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
