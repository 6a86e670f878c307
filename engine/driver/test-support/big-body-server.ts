import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

// A hostile target on 127.0.0.1 (node:net, so nothing of node:http shapes what it sends): every
// request, whatever it asks, is answered 200 with a body of `size` bytes: `head`, then `fill`
// repeated, then `tail` (a needle a check finds only at the very end), as Content-Length or as
// chunks of at most `chunk` bytes. The body is written from one reused buffer at the pace the socket drains, so a
// 1 GiB body costs this server a few KiB: whatever memory grows while it runs is the client's.

export interface BigBodyOptions {
  /** body bytes in all, `head` and `tail` included */
  size: number;
  /** the body's first bytes */
  head?: string;
  /** the bytes before the tail (repeated) */
  fill?: string;
  /** the body's last bytes */
  tail?: string;
  /** chunked transfer coding with chunks of at most this many bytes (absent: Content-Length) */
  chunk?: number;
}

export interface BigBodyServer {
  url: string;
  /** requests answered in full */
  answered: number;
  /** each request's line ("GET /x HTTP/1.1"), in arrival order */
  requests: string[];
  close(): Promise<void>;
}

const PIECE = 64 * 1024;

/** Writes `size` bytes of body to the socket, respecting backpressure; `done` once all are queued. */
function writeBody(socket: Socket, o: Required<Omit<BigBodyOptions, 'chunk'>> & { chunk: number }, done: () => void): void {
  const head = Buffer.from(o.head);
  const tail = Buffer.from(o.tail);
  const pieceSize = Math.min(PIECE, o.chunk);
  const piece = Buffer.alloc(pieceSize, o.fill);
  let left = o.size - head.length - tail.length;
  const frame = (b: Buffer): Buffer[] => (o.chunk === Infinity ? [b] : [Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
  if (head.length > 0) for (const b of frame(head)) socket.write(b);
  const pump = (): void => {
    while (left > 0) {
      const n = Math.min(left, pieceSize);
      left -= n;
      let ok = true;
      for (const b of frame(n === pieceSize ? piece : piece.subarray(0, n))) ok = socket.write(b) && ok;
      if (!ok) {
        socket.once('drain', pump);
        return;
      }
    }
    for (const b of tail.length > 0 ? frame(tail) : []) socket.write(b);
    if (o.chunk !== Infinity) socket.write('0\r\n\r\n');
    done();
  };
  pump();
}

export async function startBigBodyServer(options: BigBodyOptions): Promise<BigBodyServer> {
  const o = { head: '', fill: 'a', tail: '', chunk: Infinity, ...options };
  const sockets = new Set<Socket>();
  const state: BigBodyServer = { url: '', answered: 0, requests: [], close: async () => undefined };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    let busy = false;
    const onData = (data: Buffer): void => {
      // one answer per request: its head up to the blank line, then Content-Length bytes of body skipped
      head += data.toString('latin1');
      while (!busy && head.includes('\r\n\r\n')) {
        const end = head.indexOf('\r\n\r\n') + 4;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head.slice(0, end))?.[1] ?? 0);
        if (head.length < end + length) return;
        state.requests.push(head.slice(0, head.indexOf('\r\n')));
        head = head.slice(end + length);
        busy = true;
        const framing = o.chunk === Infinity ? `content-length: ${o.size}` : 'transfer-encoding: chunked';
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`);
        writeBody(socket, o, () => {
          state.answered++;
          busy = false;
          onData(Buffer.alloc(0));
        });
      }
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
