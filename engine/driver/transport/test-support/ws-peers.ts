import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

// WebSocket peers on 127.0.0.1 (port 0) for the session's tests. `wsPeer` is ws's own
// WebSocketServer (a server no one here wrote) with a behaviour per path, and its own counts;
// `giantFramePeer` speaks the upgrade by hand and then announces one 100 MB frame, which it feeds
// as fast as the socket takes it, so a client that buffers it would hold 100 MB.
//
//   /echo        every message back, counted by the server (received, sent)
//   /silent      accepts, never sends
//   /ticks?n=&gapMs=   sends n messages `{"seq":i}` gapMs apart, then stays open
//   /flood       sends messages until the client goes (a bounded loop: at most 1e6)
//   /cut-after-1 answers the first message, then destroys the socket
//   /missing     the upgrade is answered 404
//   /no-pong     accepts, never sends, never answers a ping

export interface WsPeer {
  readonly url: string;
  /** messages the server received and sent, by its own count */
  readonly counts: { received: number; sent: number };
  close(): Promise<void>;
}

function listenOn(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

function tracked(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return sockets;
}

export async function wsPeer(): Promise<WsPeer> {
  const http = createServer((_req, res) => res.writeHead(404).end());
  const sockets = tracked(http);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  // a peer that is there but dead to pings: ws answers pings itself unless told not to
  const deaf = new WebSocketServer({ noServer: true, maxPayload: 1 << 20, autoPong: false });
  http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (req.url === '/missing') return void socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    const server = req.url === '/no-pong' ? deaf : wss;
    server.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  const counts = { received: 0, sent: 0 };
  const send = (ws: WebSocket, text: string): void => {
    counts.sent++;
    ws.send(text);
  };
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const url = new URL(req.url ?? '/', 'http://x');
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      counts.received++;
      if (url.pathname === '/echo') send(ws, data.toString());
      if (url.pathname === '/cut-after-1') {
        send(ws, data.toString());
        (ws as unknown as { _socket: Socket })._socket.destroy();
      }
    });
    if (url.pathname === '/ticks') {
      const n = Number(url.searchParams.get('n') ?? 10);
      const gapMs = Number(url.searchParams.get('gapMs') ?? 10);
      let i = 0;
      const tick = setInterval(() => {
        if (i >= n || ws.readyState !== ws.OPEN) return clearInterval(tick);
        send(ws, JSON.stringify({ seq: i++ }));
      }, gapMs);
      ws.once('close', () => clearInterval(tick));
    }
    if (url.pathname === '/flood') {
      let i = 0;
      const burst = (): void => {
        // a batch per turn so the client's close is heard; bounded so the loop ends by itself
        for (let k = 0; k < 200 && i < 1e6; k++, i++) send(ws, 'x'.repeat(64));
        if (i < 1e6 && ws.readyState === ws.OPEN) setImmediate(burst);
      };
      burst();
    }
  });
  const port = await listenOn(http);
  return {
    url: `ws://127.0.0.1:${port}`,
    counts,
    close: () => {
      for (const c of [...wss.clients, ...deaf.clients]) c.terminate();
      wss.close();
      deaf.close();
      return closeServer(http, sockets);
    },
  };
}

/** The frame's announced length: 100 MB, under ws's default maxPayload (100 MiB), so only a bound of our own refuses it. */
export const GIANT_FRAME_BYTES = 100_000_000;

export interface GiantFramePeer {
  readonly url: string;
  /** payload bytes the peer managed to write before the client went */
  readonly written: () => number;
  close(): Promise<void>;
}

/** Upgrades by hand (RFC 6455 accept key), then one unmasked binary frame announcing GIANT_FRAME_BYTES, fed in 64 KiB chunks. */
export async function giantFramePeer(): Promise<GiantFramePeer> {
  const http = createServer((_req, res) => res.writeHead(404).end());
  const sockets = tracked(http);
  let written = 0;
  http.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const key = req.headers['sec-websocket-key'] ?? '';
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.on('error', () => socket.destroy());
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    const head = Buffer.alloc(10);
    head[0] = 0x82; // FIN, binary
    head[1] = 127; // 64-bit length follows
    head.writeBigUInt64BE(BigInt(GIANT_FRAME_BYTES), 2);
    socket.write(head);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const feed = (): void => {
      while (written < GIANT_FRAME_BYTES && !socket.destroyed) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', feed);
      }
    };
    feed();
  });
  const port = await listenOn(http);
  return { url: `ws://127.0.0.1:${port}/giant`, written: () => written, close: () => closeServer(http, sockets) };
}
