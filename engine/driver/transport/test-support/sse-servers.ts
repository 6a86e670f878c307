import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Event-stream peers for the SSE transport's tests, on 127.0.0.1 port 0, each answering every
// request the same hostile or plain way (`behaviour`). Each counts what it did, so a test compares
// the client's figures with the server's own count and sees how much a client read before it left.
//   events    n events of `size` bytes of data, gapMs apart, then the end (n = Infinity: until the client leaves)
//   cut       `n` events, then the connection is destroyed mid-stream
//   silent    the head, then nothing (never an event, never an end)
//   stall     `n` events, then nothing (the stream stays open)
//   endless   one data line that never ends, written as fast as the client takes it
//   flood     events with no gap, as fast as the client takes them
//   status    a 503 with a short text body (not an event stream)

export type Behaviour =
  | { kind: 'events'; n: number; gapMs: number; size?: number }
  | { kind: 'cut'; n: number }
  | { kind: 'silent' }
  | { kind: 'stall'; n: number }
  | { kind: 'endless' }
  | { kind: 'flood' }
  | { kind: 'status' };

export interface SseServer {
  url: string;
  /** events written, over every stream */
  events: number;
  /** bytes written to the streams' bodies */
  bytes: number;
  /** streams opened / ended by the client leaving */
  streams: number;
  left: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

export async function startSseServer(behaviour: Behaviour): Promise<SseServer> {
  const open = new Set<ServerResponse>();
  const state: SseServer = { url: '', events: 0, bytes: 0, streams: 0, left: 0, close: async () => undefined };
  const write = (res: ServerResponse, text: string | Buffer): boolean => {
    state.bytes += text.length;
    return res.write(text);
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.streams++;
    open.add(res);
    let gone = false;
    res.on('close', () => {
      open.delete(res);
      if (!res.writableEnded) state.left++;
      gone = true;
    });
    req.resume();
    if (behaviour.kind === 'status') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('busy');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const event = (i: number, size = 8) => `id: ${i}\ndata: ${'e'.repeat(size)}\n\n`;
    switch (behaviour.kind) {
      case 'silent':
        return;
      case 'stall':
        for (let i = 1; i <= behaviour.n; i++) {
          state.events++;
          write(res, event(i));
        }
        return;
      case 'events': {
        let i = 0;
        const next = () => {
          if (gone) return;
          if (i === behaviour.n) return void res.end();
          state.events++;
          write(res, event(++i, behaviour.size));
          setTimeout(next, behaviour.gapMs);
        };
        return next();
      }
      case 'cut': {
        for (let i = 1; i <= behaviour.n; i++) {
          state.events++;
          write(res, event(i));
        }
        // after the events reach the client, the connection goes without an end
        return void setTimeout(() => res.destroy(), 20);
      }
      case 'endless': {
        write(res, 'data: ');
        const pour = () => {
          while (!gone && write(res, CHUNK));
          if (!gone) res.once('drain', pour);
        };
        return pour();
      }
      case 'flood': {
        const pour = () => {
          while (!gone) {
            state.events++;
            if (!write(res, 'data: x\n\n')) return void res.once('drain', pour);
          }
        };
        return pour();
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const res of open) res.destroy();
      server.close(() => resolve());
    });
  return state;
}
