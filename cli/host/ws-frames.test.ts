import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createFakeEngine, type FakeEngine } from '../../engine/host/test-support/api-cases.js';
import { startBrowserHost, type BrowserHost } from './browser-host.js';
import { openRawWs } from './test-support/raw-ws-client.js';

// A client that breaks the WebSocket protocol is disconnected; the host and every other client go
// on. Without an 'error' listener on each socket, ws re-emits the frame error and the process dies.

let host: BrowserHost;
let engine: FakeEngine;
afterEach(async () => {
  await host.close();
});

async function start(): Promise<void> {
  engine = createFakeEngine();
  host = await startBrowserHost({ engine, staticDir: '/nonexistent' });
}

/** A well-behaved client that records the events it receives. */
async function goodClient(): Promise<{ ws: WebSocket; received: string[] }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/events?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` });
  const received: string[] = [];
  ws.on('message', (data: Buffer) => received.push(data.toString()));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, received };
}

const finished = (runId: number) => ({ event: 'run:finished', payload: { runId, status: 'completed', reason: null } }) as const;

const hostile: [string, (send: Awaited<ReturnType<typeof openRawWs>>['sendFrame']) => void][] = [
  ['a text frame of invalid UTF-8', (send) => send(0x1, Buffer.from([0xff, 0xfe, 0xc3, 0x28]))],
  ['a message over the size limit', (send) => send(0x1, Buffer.alloc(64 * 1024, 0x61))],
  ['a frame declaring 2^40 bytes', (send) => send(0x2, Buffer.alloc(8), { declaredLength: 2 ** 40 })],
  ['an unmasked client frame', (send) => send(0x1, Buffer.from('hi'), { mask: false })],
  ['a reserved opcode', (send) => send(0x3, Buffer.from('x'))],
  ['a fragmented control frame', (send) => send(0x9, Buffer.from('ping'), { fin: false })],
  ['a close frame with an invalid code', (send) => send(0x8, Buffer.from([0x03, 0xe7]))],
];

describe('browser host event socket under malformed frames', () => {
  for (const [name, write] of hostile) {
    it(`disconnects only the client that sent ${name}`, async () => {
      await start();
      const good = await goodClient();
      const bad = await openRawWs(host.port, host.token);
      await vi.waitFor(() => expect(host.clientCount()).toBe(2));
      write(bad.sendFrame);
      await bad.closed;
      await vi.waitFor(() => expect(host.clientCount()).toBe(1));
      engine.emit(finished(7));
      await vi.waitFor(() => expect(good.received).toHaveLength(1));
      expect(JSON.parse(good.received[0])).toEqual(finished(7));
      expect(good.ws.readyState).toBe(WebSocket.OPEN);
      // The host still accepts new clients afterwards.
      const again = await goodClient();
      await vi.waitFor(() => expect(host.clientCount()).toBe(2));
      again.ws.close();
      good.ws.close();
    });
  }
});
