import { constants, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../../contract/error-kinds.js';
import { classifyError } from '../measure/errors.js';
import type { RequestHandler } from './connection.js';
import { FastH2Session } from './fast-h2-session.js';
import { NodeH2Session, type H2Request, type H2Session } from './node-h2-session.js';
import { targetOf } from './target.js';
import { DEADLINE_ERROR } from './transport.js';
import { ackSettings, FLAG, frame, FRAME, literalHeaders, routeServer, serverSettings, startRawH2, type Behaviour, type RawH2Peer } from './test-support/h2-peers.js';

// The frame-by-frame h2 client (fast-h2-session.ts) answers as node:http2's client (node-h2-session.ts)
// does, both fed the same servers and requests: a node:http2 server (statuses, bodies, Server-Timing
// as the driver reads it, a peer's resets, Huffman strings and the dynamic table over many requests)
// and hostile peers written frame by frame (a frame over the size, a header block interrupted or
// without its HEADERS, padding as long as its frame, an HPACK table size over ours or an index past
// it, RST_STREAM mid-body, GOAWAY before and after a stream): the same statuses, bodies and error kinds.

let server: Http2Server | null = null;
let peer: RawH2Peer | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
  await peer?.close();
  peer = null;
});

interface Outcome {
  status: number;
  headers: string[];
  body: string;
  error: string | null;
}

/** a request's deadline, as its group keeps it (group.ts): generous, only a client that hangs meets it */
const DEADLINE_MS = 4000;

/** What a slot sees of one request, its deadline kept as the group keeps it: its stream reset with DEADLINE_ERROR. */
function recorder(done: (o: Outcome) => void): RequestHandler {
  const o: Outcome = { status: 0, headers: [], body: '', error: null };
  const chunks: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  const end = (): void => {
    clearTimeout(timer);
    done(o);
  };
  return {
    onConnect: (abort) => {
      timer = setTimeout(() => abort?.(DEADLINE_ERROR), DEADLINE_MS);
    },
    onHeaders: (status, raw) => {
      o.status = status;
      for (let i = 0; i < raw.length; i += 2) o.headers.push(`${raw[i]!.toString()}: ${raw[i + 1]!.toString()}`);
      return true;
    },
    onData: (chunk) => {
      chunks.push(Buffer.from(chunk));
      return true;
    },
    onComplete: () => {
      o.body = Buffer.concat(chunks).toString();
      end();
    },
    onError: (err) => {
      o.error = ERROR_KINDS[classifyError(err)] ?? 'none';
      o.body = Buffer.concat(chunks).toString();
      end();
    },
  };
}

interface Ask {
  method: string;
  path: string;
  body: string | null;
  headers?: Record<string, string>;
}

type Client = 'fast' | 'node';
const owner = { retired: () => undefined, ended: () => undefined };

function sessionOf(client: Client, baseUrl: string): H2Session {
  const target = targetOf({ baseUrl, protocol: 'h2c', streams: 1 });
  return client === 'fast' ? new FastH2Session(target, 5000, 1, owner, null) : new NodeH2Session(target, 5000, 1, false, owner, null);
}

/** `asks` one after another on one session of `client`'s: what a slot would see of each. */
async function via(client: Client, baseUrl: string, asks: readonly Ask[]): Promise<Outcome[]> {
  const session = sessionOf(client, baseUrl);
  const out: Outcome[] = [];
  try {
    for (const ask of asks) {
      const request: H2Request = { headers: { ':method': ask.method, ':path': ask.path, ':scheme': 'http', ':authority': new URL(baseUrl).host, ...ask.headers }, body: ask.body === null ? null : Buffer.from(ask.body) };
      out.push(await new Promise<Outcome>((resolve) => session.dispatch(request, recorder(resolve))));
    }
  } finally {
    session.destroy();
  }
  return out;
}

const ROUTES: Record<string, (stream: ServerHttp2Stream, body: string) => void> = {
  '/ok': (s) => {
    s.respond({ ':status': 200, 'content-type': 'text/plain' });
    s.end('hello');
  },
  '/missing': (s) => {
    s.respond({ ':status': 404 });
    s.end('nope');
  },
  '/timing': (s) => {
    s.respond({ ':status': 200, 'server-timing': ['proc;dur=1.5', 'wait;dur=2'], 'x-dup': ['a', 'b'], 'set-cookie': ['c=1', 'd=2'], date: new Date().toUTCString() });
    s.end();
  },
  '/big': (s) => {
    s.respond({ ':status': 200 });
    s.end(Buffer.alloc(1024 * 1024, 'z'));
  },
  '/echo': (s, body) => {
    s.respond({ ':status': 201 });
    s.end(`got ${body.length} bytes`);
  },
  '/reset-before': (s) => s.close(constants.NGHTTP2_INTERNAL_ERROR),
  '/reset-protocol': (s) => s.close(constants.NGHTTP2_PROTOCOL_ERROR),
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

async function both(baseUrl: () => Promise<string>, asks: readonly Ask[]): Promise<{ fast: Outcome[]; node: Outcome[] }> {
  const fast = await via('fast', await baseUrl(), asks);
  const node = await via('node', await baseUrl(), asks);
  return { fast, node };
}

const get = (path: string): Ask => ({ method: 'GET', path, body: null });

describe('the frame-by-frame h2 client beside node:http2: a node:http2 server', () => {
  const asks: Ask[] = [
    get('/ok'),
    get('/missing'),
    get('/timing'),
    get('/big'),
    { method: 'HEAD', path: '/ok', body: null },
    { method: 'POST', path: '/echo', body: 'payload' },
    // a header block past the server's 16 KiB frames: HEADERS and CONTINUATION frames
    { method: 'GET', path: '/ok', body: null, headers: { 'x-big': 'b'.repeat(40_000) } },
    // past the server's 64 KiB initial windows: the body goes as its WINDOW_UPDATEs open them
    { method: 'POST', path: '/echo', body: 'x'.repeat(300_000) },
    get('/reset-before'),
    get('/reset-protocol'),
    get('/reset-during'),
  ];
  for (const ask of asks) {
    const asked = `${ask.method} ${ask.path}` + (ask.body !== null ? ` (${ask.body.length} bytes)` : '') + (ask.headers ? ' with a 40 KB header' : '');
    it(`${asked}: the same status, Server-Timing, body and error kind`, async () => {
      let url: string | null = null;
      const { fast, node } = await both(async () => (url ??= await listen()), [ask]);
      expect(fast).toEqual(node);
    });
  }

  it('40 requests on one session (Huffman strings, the dynamic table filling and evicting): the same outcomes, in order', async () => {
    let url: string | null = null;
    const asks = Array.from({ length: 40 }, (_, i) => get(['/ok', '/timing', '/missing', '/big'][i % 4]!));
    const { fast, node } = await both(async () => (url ??= await listen()), asks);
    expect(fast.map((o) => o.error)).toEqual(asks.map(() => null));
    expect(fast).toEqual(node);
  });

  it('a server that is not there: both count the request as refused', async () => {
    const url = await listen();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    const { fast, node } = await both(async () => url, [get('/ok')]);
    expect(fast[0]!.error).toBe('refused');
    expect(fast).toEqual(node);
  });
});

/** A raw peer that answers each request's HEADERS with `answer(stream)`'s frames. */
function answering(answer: (stream: number) => Buffer[]): Behaviour {
  return {
    onPreface: (c) => serverSettings(c),
    onFrame: (c, type, flags, stream) => {
      ackSettings(c, type, flags);
      if (type === FRAME.HEADERS) for (const f of answer(stream)) c.send(f);
    },
  };
}

const OK_HEAD = literalHeaders([[':status', '200']]);
/** :status 200, then x-big: 4,000 bytes added to the table (literal with indexing), then that entry (index 62) 20 times */
const HPACK_BOMB = Buffer.concat([OK_HEAD, Buffer.from([0x40, 5]), Buffer.from('x-big'), Buffer.from([0x7f, 0xa1, 0x1e]), Buffer.alloc(4000, 'v'), Buffer.alloc(20, 0x80 | 62)]);
const data = (stream: number, text: string, flags = 0): Buffer => frame(FRAME.DATA, flags, stream, Buffer.from(text));

/**
 * [kind of peer, what it sends, what the fast client counts, what node:http2's does when not the
 * same]. Where they differ: for a connection error node:http2's client sends its GOAWAY and then
 * hears nothing more of that session (not even the peer closing it), so its request lasts to its
 * deadline, where the fast client fails it at once and drops the connection; and node's client takes
 * a header list past the 64 KiB we advertise whole, where the fast client refuses it (an HPACK
 * block of 4 KiB referring to one table entry 20 times is 84 KiB decoded).
 */
const HOSTILE: [string, (stream: number) => Buffer[], string, string?][] = [
  ['a well-formed answer, padded HEADERS and DATA', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | 0x8, s, Buffer.concat([Buffer.from([3]), OK_HEAD, Buffer.alloc(3)])), frame(FRAME.DATA, FLAG.END_STREAM | 0x8, s, Buffer.concat([Buffer.from([2]), Buffer.from('hi'), Buffer.alloc(2)]))], 'ok'],
  ['a header block split over CONTINUATION frames', (s) => [frame(FRAME.HEADERS, FLAG.END_STREAM, s, OK_HEAD.subarray(0, 3)), frame(FRAME.CONTINUATION, 0, s, OK_HEAD.subarray(3, 6)), frame(FRAME.CONTINUATION, FLAG.END_HEADERS, s, OK_HEAD.subarray(6))], 'ok'],
  ['a DATA frame over SETTINGS_MAX_FRAME_SIZE (16,384)', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS, s, OK_HEAD), frame(FRAME.DATA, FLAG.END_STREAM, s, Buffer.alloc(20_000, 'a'))], 'protocol', 'timeout'],
  ['a header block interrupted by a PING before its END_HEADERS', (s) => [frame(FRAME.HEADERS, 0, s, OK_HEAD.subarray(0, 3)), frame(FRAME.PING, 0, 0, Buffer.alloc(8)), frame(FRAME.CONTINUATION, FLAG.END_HEADERS, s, OK_HEAD.subarray(3)), data(s, 'x', FLAG.END_STREAM)], 'protocol', 'timeout'],
  ['CONTINUATION with no HEADERS before it', (s) => [frame(FRAME.CONTINUATION, FLAG.END_HEADERS, s, OK_HEAD)], 'protocol', 'timeout'],
  ['CONTINUATION on another stream than its HEADERS', (s) => [frame(FRAME.HEADERS, FLAG.END_STREAM, s, OK_HEAD.subarray(0, 3)), frame(FRAME.CONTINUATION, FLAG.END_HEADERS, s + 2, OK_HEAD.subarray(3))], 'protocol', 'timeout'],
  ['padding as long as its DATA frame', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS, s, OK_HEAD), frame(FRAME.DATA, FLAG.END_STREAM | 0x8, s, Buffer.from([5, 1, 2, 3, 4]))], 'protocol', 'timeout'],
  // 001 + 5-bit prefix 31, then 8192 - 31 as HPACK's varint: a dynamic table of 8192 bytes, over the 4096 a client allows
  ['an HPACK table size update over the 4,096 we allow', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, Buffer.concat([Buffer.from([0x3f, 0xe1, 0x3f]), OK_HEAD]))], 'protocol', 'timeout'],
  ['an HPACK index past the dynamic table', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, Buffer.concat([OK_HEAD, Buffer.from([0x80 | 70])]))], 'protocol', 'timeout'],
  ['a Huffman string padded with zero bits', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, Buffer.concat([OK_HEAD, Buffer.from([0x00, 0x81, 0x00, 0x01, 0x61])]))], 'protocol', 'timeout'],
  ['a response without :status', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, literalHeaders([['x-a', 'b']]))], 'protocol'],
  ['a header block without :status, then a whole answer', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS, s, literalHeaders([['x-a', 'b']])), frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, OK_HEAD)], 'protocol'],
  ['an informational 103 before the answer', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS, s, literalHeaders([[':status', '103'], ['link', '</a>']])), frame(FRAME.HEADERS, FLAG.END_HEADERS, s, OK_HEAD), data(s, 'after', FLAG.END_STREAM)], 'ok'],
  ['an upper-case field name', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, literalHeaders([[':status', '200'], ['X-Up', 'b']]))], 'protocol'],
  ['a body longer than its content-length', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS, s, literalHeaders([[':status', '200'], ['content-length', '2']])), data(s, 'hello', FLAG.END_STREAM)], 'protocol'],
  ['DATA before the response headers', (s) => [data(s, 'early', FLAG.END_STREAM)], 'protocol', 'timeout'],
  ['RST_STREAM (INTERNAL_ERROR) mid-body', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS, s, OK_HEAD), data(s, 'part'), frame(FRAME.RST_STREAM, 0, s, Buffer.from([0, 0, 0, 2]))], 'reset'],
  ['RST_STREAM (REFUSED_STREAM) before any answer', (s) => [frame(FRAME.RST_STREAM, 0, s, Buffer.from([0, 0, 0, 7]))], 'reset'],
  ['GOAWAY (NO_ERROR) whose last stream is before this one', () => [frame(FRAME.GOAWAY, 0, 0, Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]))], 'reset'],
  ['GOAWAY (NO_ERROR) after this stream, then its answer', (s) => [frame(FRAME.GOAWAY, 0, 0, Buffer.from([0, 0, 0, s, 0, 0, 0, 0])), frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, OK_HEAD)], 'ok'],
  ['300 header fields, past the 256 a response may carry', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, literalHeaders([[':status', '200'], ...Array.from({ length: 300 }, (_, i) => [`x-${i}`, 'v'] as const)]))], 'protocol'],
  ['a header list past the 64 KiB advertised, from one table entry', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s, HPACK_BOMB)], 'protocol', 'ok'],
  ['a frame on a stream the client never opened', (s) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, s + 2, OK_HEAD)], 'protocol'],
];

describe('the frame-by-frame h2 client beside node:http2: hostile peers', () => {
  for (const [what, answer, kind, nodeKind = kind] of HOSTILE) {
    const said = kind === nodeKind ? `both count ${kind}` : `the fast client counts ${kind} (node:http2: ${nodeKind})`;
    it(`${what}: ${said}`, async () => {
      const url = async (): Promise<string> => {
        await peer?.close();
        peer = await startRawH2(answering(answer));
        return peer.url;
      };
      const { fast, node } = await both(url, [get('/')]);
      expect(fast[0]!.error ?? 'ok').toBe(kind);
      expect(node[0]!.error ?? 'ok').toBe(nodeKind);
      // all else alike where both failed: the status and body each saw before the breach
      if (nodeKind !== 'ok') expect({ ...fast[0], error: null }).toEqual({ ...node[0], error: null });
    });
  }
});
