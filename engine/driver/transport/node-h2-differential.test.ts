import { constants, type Http2Server } from 'node:http2';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../../contract/error-kinds.js';
import { classifyError } from '../measure/errors.js';
import type { RequestHandler } from './connection.js';
import { NodeH2Session, type H2Request } from './node-h2-session.js';
import { routeServer } from './test-support/h2-peers.js';
import { targetOf } from './target.js';

// The h2 transport on node:http2 sessions (node-h2-session.ts) answers as undici's h2 client did
// before it (the two fed the same server, the same requests): the same statuses, bodies and header
// values (each field as it came, duplicates apart), and the same error kinds for a stream the server
// resets before or during its answer and for a server that is not there.

let server: Http2Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

interface Outcome {
  status: number;
  headers: string[];
  body: string;
  error: string | null;
}

/** What a slot would see of one request: its status, the header pairs it could read, its body, its error's kind. */
function recorder(done: (o: Outcome) => void): RequestHandler {
  const o: Outcome = { status: 0, headers: [], body: '', error: null };
  const chunks: Buffer[] = [];
  return {
    onConnect: () => undefined,
    onHeaders: (status, raw) => {
      o.status = status;
      for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toString().toLowerCase() !== 'date') o.headers.push(`${raw[i]!.toString().toLowerCase()}: ${raw[i + 1]!.toString()}`);
      return true;
    },
    onData: (chunk) => {
      chunks.push(Buffer.from(chunk));
      return true;
    },
    onComplete: () => {
      o.body = Buffer.concat(chunks).toString();
      done(o);
    },
    onError: (err) => {
      o.error = ERROR_KINDS[classifyError(err)] ?? 'none';
      done(o);
    },
  };
}

const ROUTES: Record<string, (stream: import('node:http2').ServerHttp2Stream, body: string) => void> = {
  '/ok': (s) => {
    s.respond({ ':status': 200, 'content-type': 'text/plain' });
    s.end('hello');
  },
  '/missing': (s) => {
    s.respond({ ':status': 404 });
    s.end('nope');
  },
  '/headers': (s) => {
    s.respond({ ':status': 200, 'server-timing': ['proc;dur=1.5', 'wait;dur=2'], 'x-dup': ['a', 'b'], 'set-cookie': ['c=1', 'd=2'], 'x-one': 'v' });
    s.end();
  },
  '/big': (s) => {
    s.respond({ ':status': 200 });
    s.end(Buffer.alloc(1024 * 1024, 'z'));
  },
  '/echo': (s, body) => {
    s.respond({ ':status': 201 });
    s.end(`got ${body}`);
  },
  '/reset-before': (s) => s.close(constants.NGHTTP2_INTERNAL_ERROR),
  '/reset-during': (s) => {
    s.respond({ ':status': 200 });
    s.write('part');
    setImmediate(() => s.close(constants.NGHTTP2_INTERNAL_ERROR));
  },
};

async function listen(): Promise<string> {
  const started = await routeServer(ROUTES);
  server = started.server;
  return started.url;
}

interface Ask {
  method: string;
  path: string;
  body: string | null;
}

function viaNodeH2(baseUrl: string, ask: Ask): Promise<Outcome> {
  const target = targetOf({ baseUrl, protocol: 'h2c', streams: 1 });
  const session = new NodeH2Session(target, 5000, 1, true, { retired: () => undefined, ended: () => undefined }, null);
  const request: H2Request = { headers: { ':method': ask.method, ':path': ask.path, ':scheme': 'http', ':authority': new URL(baseUrl).host }, body: ask.body === null ? null : Buffer.from(ask.body) };
  return new Promise<Outcome>((resolve) => session.dispatch(request, recorder(resolve))).finally(() => session.destroy());
}

function viaUndici(baseUrl: string, ask: Ask): Promise<Outcome> {
  const client = new Client(baseUrl, { useH2c: true, pipelining: 1 } as Client.Options);
  return new Promise<Outcome>((resolve) => client.dispatch({ method: ask.method, path: ask.path, body: ask.body, headers: {} }, recorder(resolve))).finally(() => client.destroy().catch(() => undefined));
}

describe('node:http2 sessions beside undici: the same server, the same requests', () => {
  const asks: Ask[] = [
    { method: 'GET', path: '/ok', body: null },
    { method: 'GET', path: '/missing', body: null },
    { method: 'GET', path: '/headers', body: null },
    { method: 'GET', path: '/big', body: null },
    { method: 'HEAD', path: '/ok', body: null },
    { method: 'POST', path: '/echo', body: 'payload' },
    { method: 'GET', path: '/reset-before', body: null },
    { method: 'GET', path: '/reset-during', body: null },
  ];

  for (const ask of asks) {
    it(`${ask.method} ${ask.path}: the same status, headers, body and error kind`, async () => {
      const baseUrl = await listen();
      const ours = await viaNodeH2(baseUrl, ask);
      const theirs = await viaUndici(baseUrl, ask);
      expect(ours).toEqual(theirs);
    });
  }

  it('a server that is not there: both count the request as refused', async () => {
    const baseUrl = await listen();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    const ask = { method: 'GET', path: '/ok', body: null };
    const ours = await viaNodeH2(baseUrl, ask);
    const theirs = await viaUndici(baseUrl, ask);
    expect(ours.error).toBe('refused');
    expect(ours).toEqual(theirs);
  });
});
