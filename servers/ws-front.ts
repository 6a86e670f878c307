import type { IncomingMessage } from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

// The WebSocket endpoints every architecture's front answers (http-front.ts attaches them): the
// sessions live in the process that accepted the connection, beside its HTTP requests, so thousands
// of open sessions next to /fib show how the architecture shares its event loop. In cluster and in
// offload's HTTP workers each process has its own sessions (a broadcast reaches the sessions of the
// process it was sent to); autoscale's master holds them itself (it hands on only HTTP work).
//
//   /ws/echo                         every message back as it came (text as text, binary as binary)
//   /ws/broadcast                    every message to every broadcast session of this process
//   /ws/broadcast?ticks=N&gapMs=M&size=B   and N messages {"seq":i,"ms":<server clock>} M ms apart to
//                                    this session (a subscription's feed), padded to B bytes
//
// Bounds: a client message at most MAX_WS_MESSAGE (ws closes 1009 past it), at most MAX_WS_SESSIONS
// open at once per process (503 past it), a session that stops reading dropped past MAX_WS_BUFFERED, ticks ≤ MAX_TICKS, size ≤ MAX_TICK_BYTES, gapMs ≤ 60 s.
// The upgrade is HTTP/1.1's: over https, and over an h2 front too, whose node:http2 server hands an
// HTTP/1.1 connection (allowHTTP1, chosen by ALPN) on with its upgrade.

export const WS_ECHO_PATH = '/ws/echo';
export const WS_BROADCAST_PATH = '/ws/broadcast';
export const MAX_WS_MESSAGE = 1 << 20;
export const MAX_WS_SESSIONS = 20_000;
export const MAX_TICKS = 1_000_000;
export const MAX_TICK_BYTES = 64 * 1024;
const MAX_GAP_MS = 60_000;
/** a session whose unsent messages pass this is too slow a reader: it is dropped, not buffered for */
export const MAX_WS_BUFFERED = 8 << 20;

/** What /__stats says of this process's sessions (contract/servers.ts ServerStats.webSockets). */
export interface WsCounts {
  open: number;
  received: number;
  sent: number;
}

/** Sends, or drops a session that has stopped reading (its backlog would grow without bound). */
function sendBounded(counts: WsCounts, ws: WebSocket, data: WebSocket.RawData | string, binary: boolean): void {
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount > MAX_WS_BUFFERED) return ws.terminate();
  counts.sent++;
  ws.send(data, { binary });
}

function refuse(socket: Socket, status: string, reason: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason)}\r\nConnection: close\r\n\r\n${reason}`);
}

/** A bounded integer query parameter, or a one-line reason. */
function param(url: URL, name: string, fallback: number, max: number): number | string {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= max ? n : `${name} must be an integer from 0 to ${max}`;
}

function startTicks(counts: WsCounts, ws: WebSocket, count: number, gapMs: number, size: number): void {
  let seq = 0;
  const tick = (): void => {
    if (seq >= count || ws.readyState !== ws.OPEN) return;
    const text = JSON.stringify({ seq: seq++, ms: performance.now() });
    sendBounded(counts, ws, text.length >= size ? text : text + ' '.repeat(size - text.length), false);
    timer = setTimeout(tick, gapMs);
  };
  let timer = setTimeout(tick, gapMs);
  ws.once('close', () => clearTimeout(timer));
}

/** Answers WebSocket upgrades on /ws/echo and /ws/broadcast (any other upgrade: 404), keeping `counts`. */
export function attachWebSockets(server: NetServer, counts: WsCounts): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE, perMessageDeflate: false });
  const broadcast = new Set<WebSocket>();
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://front');
    if (url.pathname !== WS_ECHO_PATH && url.pathname !== WS_BROADCAST_PATH) return refuse(socket, '404 Not Found', `no WebSocket endpoint at ${url.pathname}; ${WS_ECHO_PATH} and ${WS_BROADCAST_PATH} answer`);
    if (wss.clients.size >= MAX_WS_SESSIONS) return refuse(socket, '503 Service Unavailable', `${MAX_WS_SESSIONS} WebSocket sessions are open in this process`);
    const ticks = param(url, 'ticks', 0, MAX_TICKS);
    const gapMs = param(url, 'gapMs', 100, MAX_GAP_MS);
    const size = param(url, 'size', 0, MAX_TICK_BYTES);
    const bad = [ticks, gapMs, size].find((p) => typeof p === 'string');
    if (bad !== undefined) return refuse(socket, '400 Bad Request', bad as string);
    wss.handleUpgrade(req, socket, head, (ws) => {
      counts.open++;
      ws.once('close', () => counts.open--);
      ws.on('error', () => ws.terminate());
      ws.on('message', () => counts.received++);
      if (url.pathname === WS_ECHO_PATH) {
        ws.on('message', (data, isBinary) => sendBounded(counts, ws, data, isBinary));
        return;
      }
      broadcast.add(ws);
      ws.once('close', () => broadcast.delete(ws));
      ws.on('message', (data, isBinary) => {
        for (const peer of broadcast) sendBounded(counts, peer, data, isBinary);
      });
      if ((ticks as number) > 0) startTicks(counts, ws, ticks as number, gapMs as number, size as number);
    });
  });
}
