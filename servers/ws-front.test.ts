import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerStats } from '../contract/servers.js';
import { get, startServer, stopAll, waitFor } from './test-support/servers.js';
import { MAX_WS_BUFFERED } from './ws-front.js';

// The bundled servers' WebSocket endpoints (ws-front.ts) under a client that stops reading: a
// subscription fed 64 KiB ticks as fast as the server can is dropped once its unsent backlog passes
// MAX_WS_BUFFERED, so the server holds a bounded backlog (not the million ticks asked for), and its
// HTTP side still answers. Its /__stats counts the sessions open. Servers started from dist/ (build first).

afterEach(stopAll);

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** Upgrades by hand and then reads nothing: resolves once the 101 head is in, with the socket paused. */
function stalledSubscriber(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      if (chunk.toString('latin1').startsWith('HTTP/1.1 101')) resolve(socket);
      else reject(new Error(`not upgraded: ${chunk.toString('latin1').split('\r\n')[0] ?? ''}`));
    });
  });
}

async function stats(url: string): Promise<ServerStats> {
  return ServerStats.parse(JSON.parse((await get(`${url}/__stats`)).text));
}

describe('the bundled WebSocket endpoints', () => {
  it('a subscriber that stops reading a 64 KiB feed: dropped past the backlog bound, the server still answers', async () => {
    const server = await startServer('single');
    const port = Number(new URL(server.url).port);
    const socket = await stalledSubscriber(port, '/ws/broadcast?ticks=1000000&gapMs=0&size=65536');
    expect((await stats(server.url)).webSockets?.open).toBe(1);
    // the server drops the session once its backlog passes the bound; its count of open sessions says so
    await waitFor('the stalled session dropped', async () => ((await stats(server.url)).webSockets?.open === 0 ? true : undefined), 30_000);
    // what the server had queued is bounded: read it all to the end
    let read = 0;
    socket.on('data', (chunk: Buffer) => (read += chunk.length));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.resume();
    await ended;
    expect(read).toBeLessThan(MAX_WS_BUFFERED + 32 * 1024 * 1024);
    const sent = (await stats(server.url)).webSockets?.sent ?? 0;
    expect(sent).toBeLessThan(1_000_000);
    expect((await get(`${server.url}/fib?n=10`)).status).toBe(200);
  });
});
