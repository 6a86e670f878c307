import type { Server as HttpServer } from 'node:http';
import { createSecureServer, type Http2SecureServer, type ServerHttp2Stream } from 'node:http2';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

// Targets on 127.0.0.1 (port 0) that answer in ways no request deadline built on idle timers ends:
//   startSlowHttp   HTTP/1.1 over TCP or TLS, once per connection, after the request's head:
//                   'trickle-head'     a status line and one header value, a byte every `everyMs`, never done
//                   'trickle-body'     content-length: 1,000,000, then a byte every `everyMs`
//                   'endless-chunked'  transfer-encoding: chunked, 1 KiB chunks as fast as the client reads
//   startSlowH2     the same over h2 (TLS, ALPN): 'trickle-body' or 'endless-body' on every stream
//   startH2cFlood   h2c: answers the preface with its SETTINGS, then floods PING or SETTINGS frames
//                   without ever reading again (node's flood guard fails the session; nodejs/node#63412)

export interface HostileServer {
  url: string;
  /** connections accepted */
  connections: number;
  close(): Promise<void>;
}

export type SlowHttp = 'trickle-head' | 'trickle-body' | 'endless-chunked';

interface Tls {
  key: string;
  cert: string;
}

const KIB = Buffer.alloc(1024, 'a');
const CHUNK = Buffer.concat([Buffer.from('400\r\n'), KIB, Buffer.from('\r\n')]);

/** Writes `data` again each time the socket drains, until it is destroyed: as fast as the reader reads. */
function flood(out: { write(b: Buffer): boolean; once(e: 'drain', f: () => void): unknown; destroyed: boolean }, data: Buffer): void {
  const pump = (): void => {
    while (!out.destroyed && out.write(data));
    if (!out.destroyed) out.once('drain', pump);
  };
  pump();
}

/** Starts `server` on 127.0.0.1 and wraps it: close() destroys every open connection and stops every timer. */
async function listen(server: NetServer | HttpServer | Http2SecureServer, scheme: string, timers = new Set<NodeJS.Timeout>()): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const state: HostileServer = {
    url: '',
    connections: 0,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (s: Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export async function startSlowHttp(how: SlowHttp, options: { tls?: Tls; everyMs?: number } = {}): Promise<HostileServer> {
  const everyMs = options.everyMs ?? 100;
  const timers = new Set<NodeJS.Timeout>();
  const onSocket = (s: Socket): void => {
    let head = '';
    const onData = (b: Buffer): void => {
      head += b.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      // what the client sends after the head is read and dropped
      s.off('data', onData);
      misbehave(s);
    };
    s.on('data', onData);
  };
  const trickle = (s: Socket, start: string): void => {
    s.write(start);
    const t = setInterval(() => s.write('a'), everyMs);
    timers.add(t);
    s.on('close', () => {
      clearInterval(t);
      timers.delete(t);
    });
  };
  const misbehave = (s: Socket): void => {
    if (how === 'trickle-head') trickle(s, 'HTTP/1.1 200 OK\r\nx-trickle: ');
    else if (how === 'trickle-body') trickle(s, 'HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n');
    else {
      s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
      flood(s, CHUNK);
    }
  };
  const server = options.tls === undefined ? createNetServer(onSocket) : createTlsServer({ ...options.tls }, onSocket);
  return listen(server, options.tls === undefined ? 'http' : 'https', timers);
}

export async function startSlowH2(how: 'trickle-body' | 'endless-body', tls: Tls, everyMs = 100): Promise<HostileServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server = createSecureServer({ ...tls, allowHTTP1: false });
  server.on('stream', (stream: ServerHttp2Stream) => {
    stream.on('error', () => undefined);
    if (how === 'trickle-body') {
      stream.respond({ ':status': 200, 'content-length': '1000000' });
      const t = setInterval(() => stream.write('a'), everyMs);
      timers.add(t);
      stream.on('close', () => {
        clearInterval(t);
        timers.delete(t);
      });
    } else {
      stream.respond({ ':status': 200 });
      flood(stream, KIB);
    }
  });
  return listen(server, 'https', timers);
}

const frame = (type: number, flags: number, payload: Buffer): Buffer => {
  const b = Buffer.alloc(9 + payload.length);
  b.writeUIntBE(payload.length, 0, 3);
  b[3] = type;
  b[4] = flags;
  payload.copy(b, 9);
  return b;
};
const SETTINGS = 0x4;
const PING = 0x6;
const ACK = 0x1;

export async function startH2cFlood(what: 'ping' | 'settings'): Promise<HostileServer> {
  const one = what === 'ping' ? frame(PING, 0, Buffer.alloc(8)) : frame(SETTINGS, 0, Buffer.from([0, 3, 0, 0, 0, 100]));
  const burst = Buffer.concat(Array.from({ length: 1000 }, () => one));
  const server = createNetServer((s) => {
    // the client's preface (and its SETTINGS): answer as a server does, then flood and read no more,
    // so the client's acknowledgements pile up unread
    s.once('data', () => {
      s.write(frame(SETTINGS, 0, Buffer.alloc(0)));
      s.write(frame(SETTINGS, ACK, Buffer.alloc(0)));
      s.pause();
      flood(s, burst);
    });
  });
  return listen(server, 'http');
}
