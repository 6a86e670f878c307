import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { H1Connection, type H1Handler } from './h1.js';
import { compileH1 } from '../test-support/compile-h1.js';
import { targetOf } from './target.js';
import { burst, req } from '../test-support/phases.js';

// The fast HTTP/1.1 path against a raw TCP server that answers with canned bytes, delivered one byte
// per write so every parser state sees a split.

let server: Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

/** A server answering each request (one per connection turn) with the next canned response. */
async function canned(responses: string[], dribble = true): Promise<{ url: string; connections: () => number }> {
  let n = 0;
  let connections = 0;
  server = createServer((s: Socket) => {
    connections++;
    s.on('data', async () => {
      const r = responses[n++] ?? '';
      if (!dribble) {
        s.write(r);
        if (r.endsWith('short')) s.end();
        return;
      }
      for (const ch of r) {
        s.write(ch, 'latin1');
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (r.includes('HTTP/1.0')) s.end();
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, connections: () => connections };
}

interface Got {
  status: number;
  body: string;
  timing: string[];
  error: string | null;
}

function fetchOne(conn: H1Connection, method = 'GET'): Promise<Got> {
  const [request] = compileH1(burst(1, '/', { requests: [req('/', { method: method as 'GET' })] }), 'http://127.0.0.1:1')!;
  return new Promise((resolve) => {
    const got: Got = { status: 0, body: '', timing: [], error: null };
    const handler: H1Handler = {
      onConnect: () => undefined,
      onHeaders: (status, raw) => {
        got.status = status;
        got.timing = raw.map((b) => b.toString('latin1'));
        return true;
      },
      onData: (chunk) => {
        got.body += chunk.toString('latin1');
        return true;
      },
      onComplete: () => resolve(got),
      onError: (err) => resolve({ ...got, error: String((err as { code?: string }).code) }),
    };
    conn.dispatch(request!, handler);
  });
}

describe('H1Connection', () => {
  it('parses content-length, chunked (extensions, trailers), 1xx, HEAD and read-until-close, byte by byte', async () => {
    const { url, connections } = await canned([
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer-Timing: wait;dur=1, proc;dur=2\r\n\r\nhello',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\n',
      'HTTP/1.0 200 OK\r\n\r\nuntil close',
    ]);
    const conn = new H1Connection(targetOf({ baseUrl: url }), 5000);
    expect(await fetchOne(conn)).toEqual({ status: 200, body: 'hello', timing: ['Server-Timing', 'wait;dur=1, proc;dur=2'], error: null });
    expect(await fetchOne(conn)).toMatchObject({ status: 201, body: 'abc0123456789', error: null });
    expect(await fetchOne(conn, 'HEAD')).toMatchObject({ status: 200, body: '', error: null });
    expect(await fetchOne(conn)).toMatchObject({ status: 200, body: 'until close', error: null });
    expect(connections()).toBe(1);
    conn.close();
  });

  it('reconnects after Connection: close; a connection closed mid-response is a socket error; silence is a timeout', async () => {
    const { url, connections } = await canned(['HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort', ''], false);
    const conn = new H1Connection(targetOf({ baseUrl: url }), 300);
    expect(await fetchOne(conn)).toMatchObject({ status: 204, error: null });
    expect(await fetchOne(conn)).toMatchObject({ status: 200, body: 'short', error: 'UND_ERR_SOCKET' });
    const t = performance.now();
    expect(await fetchOne(conn)).toMatchObject({ status: 0, error: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    expect(connections()).toBe(3);
    conn.destroy();
  });

  it('prebuilds only keep-alive http and https templates with ordinary headers', () => {
    expect(compileH1(burst(1, '/a?b=1'), 'http://127.0.0.1:8080')![0]!.bytes.toString()).toBe('GET /a?b=1 HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n\r\n');
    const post = compileH1(burst(1, '/', { requests: [req('/', { method: 'POST', body: 'xy', headers: { 'x-a': 'b' } })] }), 'http://localhost:1');
    expect(post![0]!.bytes.toString()).toBe('POST / HTTP/1.1\r\nhost: localhost:1\r\nx-a: b\r\ncontent-length: 2\r\n\r\nxy');
    expect(compileH1(burst(1, '/', { keepAlive: false }), 'http://127.0.0.1:1')).toBeNull();
    // HTTP/1.1 in TLS goes the fast path too (issue 42, h1-endpoint.ts); another scheme does not
    expect(compileH1(burst(1), 'https://127.0.0.1:1')![0]!.bytes.toString()).toBe('GET /ok HTTP/1.1\r\nhost: 127.0.0.1:1\r\n\r\n');
    expect(compileH1(burst(1), 'ws://127.0.0.1:1')).toBeNull();
    expect(compileH1(burst(1, '/', { requests: [req('/', { headers: { Connection: 'close' } })] }), 'http://127.0.0.1:1')).toBeNull();
    expect(compileH1(burst(1, '/', { requests: [req('/', { headers: { 'x-a': 'b\r\nx-b: c' } })] }), 'http://127.0.0.1:1')).toBeNull();
  });
});
