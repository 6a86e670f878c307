import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

// A WebSocket client that writes frames byte by byte, for tests that send what a well-behaved
// library never would (invalid UTF-8, oversized or truncated frames, garbage). Test support only.

export interface RawWsClient {
  socket: Socket;
  /** Writes one client frame (masked, as the protocol requires of clients) with any opcode and payload. */
  sendFrame(opcode: number, payload: Buffer, options?: { fin?: boolean; declaredLength?: number; mask?: boolean }): void;
  /** Resolves when the server has closed the TCP connection (or it errored). */
  closed: Promise<void>;
}

export function encodeFrame(opcode: number, payload: Buffer, options: { fin?: boolean; declaredLength?: number; mask?: boolean } = {}): Buffer {
  const length = options.declaredLength ?? payload.length;
  const masked = options.mask ?? true;
  const head: number[] = [(options.fin === false ? 0 : 0x80) | (opcode & 0x0f)];
  const maskBit = masked ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 65536) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    head.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  if (!masked) return Buffer.concat([Buffer.from(head), payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]));
  return Buffer.concat([Buffer.from(head), key, body]);
}

/** Opens /events with the token by a hand-written upgrade and resolves once the server says 101. */
export function openRawWs(port: number, token: string): Promise<RawWsClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => {
      socket.once('close', () => done());
    });
    socket.on('error', () => undefined);
    let answer = '';
    const onData = (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (!answer.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!answer.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${answer.split('\r\n')[0]}`));
      resolve({ socket, closed, sendFrame: (opcode, payload, options) => socket.write(encodeFrame(opcode, payload, options)) });
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed before the upgrade')));
    socket.write(
      [
        `GET /events?token=${token} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
  });
}
