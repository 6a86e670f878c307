import type { RequestHandler } from './connection.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTransport } from '../../../servers/front-transport.js';
import { errorKindOf } from '../../../contract/measurement.js';
import { classifyError } from '../measure/errors.js';
import { UndiciTransport } from './undici-h1.js';
import { H1Connection } from './h1.js';
import { compileH1 } from '../test-support/compile-h1.js';
import { targetOf } from './target.js';
import { burst, req } from '../test-support/phases.js';
import { HOSTILE_MODES, answerTo, startHostileServer, type HostileMode, type HostileOptions, type HostileServer } from '../test-support/hostile-server.js';

// The driver's HTTP/1.1 fast path (h1.ts, h1-response.ts) frames responses exactly as undici does
// (issue 35): the same hostile bytes from one fixture server (test-support/hostile-server.ts) go to
// the fast path and to an undici Client set up as the driver's slow path, and both must classify each
// of two requests alike (ok, or the error kind), read no answer meant for another request, and close a
// connection that carried bytes no request asked for. A malformed answer is a 'protocol' error
// carrying llhttp's HPE_* code. The hostile answers are tried inside TLS too (the fast path over
// https, issue 42).

/** A deadline for a client that waits on a malformed answer (the failing case); correct clients answer at once. */
const TIMEOUT_MS = 3000;
/** How long a client is given to close a connection that received a stray answer while idle (the failing case waits it out). */
const CLOSE_DEADLINE_MS = 10_000;
const PATHS = ['/first', '/second'] as const;
const PHASE = burst(1, '/', { timeoutMs: TIMEOUT_MS, requests: PATHS.map((p) => req(p)) });

let server: HostileServer | null = null;
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
  server = null;
});

/** What a client made of a request: 'ok' (its own answer), another answer (status and body), or the error's kind. */
interface Outcome {
  outcome: string;
  /** the error's code (the fast path's are llhttp's HPE_*), or null */
  code: string | null;
}

/** A client under test; `done` may send the next request at once, as the driver does from a settled request. */
interface Subject {
  send(i: number, done: (o: Outcome) => void): void;
  close(): Promise<void>;
}

function collector(path: string, done: (o: Outcome) => void) {
  let status = 0;
  let body = '';
  return {
    headers(s: number) {
      if (s >= 200) status = s;
    },
    data(chunk: Buffer) {
      body += chunk.toString('latin1');
    },
    complete() {
      done({ outcome: status === 200 && body === answerTo(path) ? 'ok' : `another answer: ${status} ${JSON.stringify(body)}`, code: null });
    },
    error(err: Error) {
      const code = (err as { code?: unknown }).code;
      done({ outcome: errorKindOf(classifyError(err)) ?? 'none', code: typeof code === 'string' ? code : null });
    },
  };
}

/** the TLS options of both clients towards a fixture over TLS (its certificate is self-signed; ignored over http) */
const TLS = { insecure: true };

function fastPath(url: string): Subject {
  const conn = new H1Connection(targetOf({ baseUrl: url, tls: TLS }), TIMEOUT_MS);
  const requests = compileH1(PHASE, url)!;
  return {
    send(i, done) {
      const c = collector(PATHS[i]!, done);
      conn.dispatch(requests[i]!, {
        onConnect: () => undefined,
        onHeaders: (status) => (c.headers(status), true),
        onData: (chunk) => (c.data(chunk), true),
        onComplete: () => c.complete(),
        onError: (err) => c.error(err),
      });
    },
    close: async () => conn.destroy(),
  };
}

/** undici as the driver's slow path sets it up (undici-h1.ts: one Client per slot, pipelining 1, the phase's timeouts). */
function undiciPath(url: string): Subject {
  const transport = new UndiciTransport(targetOf({ baseUrl: url, tls: TLS }), PHASE, { slots: 1, columns: [], connections: null, readsHeaders: false, warm: [] });
  return {
    send(i, done) {
      const c = collector(PATHS[i]!, done);
      const handler: RequestHandler = {
        onConnect: () => undefined,
        onHeaders: (status) => (c.headers(status), true),
        onData: (chunk) => (c.data(chunk), true),
        onComplete: () => c.complete(),
        onError: (err) => c.error(err),
      };
      transport.send(0, i, null, handler, NaN);
    },
    close: async () => transport.destroyAll(),
  };
}

/** Resolves when p does or after ms, whichever is first (a deadline for the failing case, not a wait). */
function within(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

interface Exchange {
  first: Outcome;
  second: Outcome;
  /** the connection the second request reached the server on (1: the first one, kept) */
  secondOn: number | null;
}

/** Two requests on a fresh client: the second sent from the first's settling, or (before-request) after a stray arrived while idle. */
async function exchange(mode: HostileMode | ((path: string) => string), make: (url: string) => Subject, options: HostileOptions = {}): Promise<Exchange> {
  const s = (server = await startHostileServer(mode, options));
  const subject = make(s.url);
  clients.push(subject);
  const one = (i: number) => new Promise<Outcome>((resolve) => subject.send(i, resolve));
  let first: Outcome;
  let second: Outcome;
  if (mode === 'before-request') {
    first = await one(0);
    s.sendStray();
    // a client that reads the stray closes the connection; one that does not is given the deadline
    await within(s.clientClosed(1), CLOSE_DEADLINE_MS);
    second = await one(1);
  } else {
    [first, second] = await new Promise<[Outcome, Outcome]>((resolve) => subject.send(0, (a) => subject.send(1, (b) => resolve([a, b]))));
  }
  const secondOn = s.connectionOf[s.paths.indexOf(PATHS[1])] ?? null;
  await subject.close();
  await s.close();
  server = null;
  return { first, second, secondOn };
}

/**
 * Answers whose point is bytes after the response's end in the same read. A byte per read, those
 * bytes arrive after the next request was sent, where no HTTP/1.1 client can tell them from its
 * answer (before-request covers bytes that arrive while idle).
 */
const AFTER_THE_END = new Set<string>(['extra-after-body', 'junk after the body']);

/** What both paths make of each mode: the kind of each request, and whether the second had to open a new connection. */
const EXPECTED: Record<HostileMode, { kind: string; secondOn: number; fastCode: string | null }> = {
  control: { kind: 'ok', secondOn: 1, fastCode: null },
  'extra-after-body': { kind: 'ok', secondOn: 2, fastCode: null },
  'before-request': { kind: 'ok', secondOn: 2, fastCode: null },
  'content-length-differing': { kind: 'protocol', secondOn: 2, fastCode: 'HPE_UNEXPECTED_CONTENT_LENGTH' },
  'content-length-non-digit': { kind: 'protocol', secondOn: 2, fastCode: 'HPE_INVALID_CONTENT_LENGTH' },
  'chunk-no-crlf': { kind: 'protocol', secondOn: 2, fastCode: 'HPE_STRICT' },
  'chunk-size-cr': { kind: 'protocol', secondOn: 2, fastCode: 'HPE_STRICT' },
  'status-4-digit': { kind: 'protocol', secondOn: 2, fastCode: 'HPE_INVALID_STATUS' },
  'chunk-size-oversize': { kind: 'protocol', secondOn: 2, fastCode: 'HPE_INVALID_CHUNK_SIZE' },
};

describe('HTTP/1.1 framing: the fast path against undici, on the same hostile bytes', () => {
  it.each([...HOSTILE_MODES])('%s: both paths classify each request alike, no request reads another\'s answer, and a connection out of step is not reused', async (mode) => {
    const fast = await exchange(mode, fastPath);
    const undici = await exchange(mode, undiciPath);
    const want = EXPECTED[mode];
    expect(kinds(undici)).toEqual({ first: want.kind, second: want.kind, secondOn: want.secondOn });
    expect(kinds(fast)).toEqual(kinds(undici));
    // the fast path says what was wrong in llhttp's words
    expect([fast.first.code, fast.second.code]).toEqual([want.fastCode, want.fastCode]);
    if (AFTER_THE_END.has(mode)) return;
    // every split: a byte per read
    const dribbled = await exchange(mode, fastPath, { dribble: true });
    expect(kinds(dribbled)).toEqual(kinds(undici));
    expect([dribbled.first.code, dribbled.second.code]).toEqual([want.fastCode, want.fastCode]);
  });
});

const kinds = (e: Exchange) => ({ first: e.first.outcome, second: e.second.outcome, secondOn: e.secondOn });

describe('HTTP/1.1 framing over TLS: the fast path against undici, on the same hostile bytes inside TLS (issue 42)', () => {
  let pem: { key: string; cert: string };
  beforeAll(async () => {
    pem = (await makeTransport('h1-tls')).tls!;
  });

  it.each([...HOSTILE_MODES])('%s over TLS: both paths classify each request alike, and a connection out of step is not reused', async (mode) => {
    const fast = await exchange(mode, fastPath, { tls: pem });
    const undici = await exchange(mode, undiciPath, { tls: pem });
    const want = EXPECTED[mode];
    expect(kinds(undici)).toEqual({ first: want.kind, second: want.kind, secondOn: want.secondOn });
    expect(kinds(fast)).toEqual(kinds(undici));
    expect([fast.first.code, fast.second.code]).toEqual([want.fastCode, want.fastCode]);
  });
});

/**
 * More answers, each the same for every request (so 'ok' reads as "another answer": what matters is
 * that both paths read the same). Framing, status line, header lines and chunked edges that llhttp
 * accepts or refuses.
 */
const CL = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n';
const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
const EDGES: Record<string, string> = {
  'a repeated equal Content-Length': `${CL}Content-Length: 2\r\n\r\nok`,
  'a Content-Length list': 'HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok',
  'an empty Content-Length': 'HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\nok',
  'spaces around Content-Length': 'HTTP/1.1 200 OK\r\nContent-Length:  2  \r\n\r\nok',
  'a signed Content-Length': 'HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok',
  'an overflowing Content-Length': 'HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nok',
  'Content-Length then Transfer-Encoding': `${CL}Transfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n`,
  'Transfer-Encoding then Content-Length': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\nok\r\n0\r\n\r\n',
  'a non-chunked Transfer-Encoding with Content-Length': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\nok',
  'chunked in a second Transfer-Encoding': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
  'CHUNKED in capitals': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: CHUNKED\r\n\r\n2\r\nok\r\n0\r\n\r\n',
  'a bare LF after chunk data': `${CHUNKED}2\r\nok\n0\r\n\r\n`,
  'a bare LF after a chunk size': `${CHUNKED}2\nok\r\n0\r\n\r\n`,
  'a space after a chunk size': `${CHUNKED}2 \r\nok\r\n0\r\n\r\n`,
  'a chunk extension': `${CHUNKED}2;a=b\r\nok\r\n0\r\n\r\n`,
  'a quoted chunk extension': `${CHUNKED}2;a="b c"\r\nok\r\n0\r\n\r\n`,
  'a space before a chunk extension': `${CHUNKED}2 ;a=b\r\nok\r\n0\r\n\r\n`,
  'leading zeros in a chunk size': `${CHUNKED}0000000000000000000002\r\nok\r\n0\r\n\r\n`,
  'a trailer': `${CHUNKED}2\r\nok\r\n0\r\nX-T: 1\r\n\r\n`,
  'a malformed trailer': `${CHUNKED}2\r\nok\r\n0\r\nbad trailer\r\n\r\n`,
  'a bare LF ending the trailers': `${CHUNKED}2\r\nok\r\n0\r\n\n`,
  'a 2-digit status': 'HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\nok',
  'a status without a reason': 'HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok',
  'a status and an empty reason': 'HTTP/1.1 200 \r\nContent-Length: 2\r\n\r\nok',
  'a status of 600': 'HTTP/1.1 600 Odd\r\nContent-Length: 2\r\n\r\nok',
  'a tab after the status': 'HTTP/1.1 200\tOK\r\nContent-Length: 2\r\n\r\nok',
  'two spaces before the status': 'HTTP/1.1  200 OK\r\nContent-Length: 2\r\n\r\nok',
  'a control byte in the reason': 'HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\nok',
  'HTTP/1.0': 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok',
  'HTTP/1.0 with keep-alive': 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok',
  'HTTP/1.2': 'HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok',
  'a lower-case protocol': 'http/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
  'bare LFs in the head': 'HTTP/1.1 200 OK\nContent-Length: 2\n\nok',
  'a bare LF ending the head': `${CL}\nok`,
  'a CR inside a header value': 'HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 2\r\n\r\nok',
  'a space before the colon': 'HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok',
  'a header line without a colon': `${CL}X-A\r\n\r\nok`,
  'an empty header name': `${CL}: a\r\n\r\nok`,
  'a bracket in a header name': `${CL}X(A): a\r\n\r\nok`,
  'a folded header': 'HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 2\r\n\r\nok',
  'a space before the first header': 'HTTP/1.1 200 OK\r\n X-A: a\r\nContent-Length: 2\r\n\r\nok',
  'a control byte in a header value': `${CL}X-A: a\x01b\r\n\r\nok`,
  'a NUL in a header value': `${CL}X-A: a\x00b\r\n\r\nok`,
  'DEL in a header value': `${CL}X-A: a\x7fb\r\n\r\nok`,
  'obs-text and a tab in a header value': `${CL}X-A: a\xff\tb\r\n\r\nok`,
  'Connection: close': `${CL}Connection: close\r\n\r\nok`,
  'Connection: a list with close': `${CL}Connection: foo, Close\r\n\r\nok`,
  'junk after the body': `${CL}\r\nokX`,
  '103 Early Hints first': 'HTTP/1.1 103 Early\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
  'a 1xx with a Content-Length': 'HTTP/1.1 102 Processing\r\nContent-Length: 2\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
  '101 Switching Protocols': 'HTTP/1.1 101 Switching\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n',
};

describe('HTTP/1.1 framing: edges both parsers decide', () => {
  it.each([...Object.keys(EDGES)])('%s: the fast path, in one piece and a byte per read, reads it as undici does', async (name) => {
    const bytes = EDGES[name]!;
    const undici = kinds(await exchange(() => bytes, undiciPath));
    expect(kinds(await exchange(() => bytes, fastPath))).toEqual(undici);
    if (!AFTER_THE_END.has(name)) expect(kinds(await exchange(() => bytes, fastPath, { dribble: true }))).toEqual(undici);
  });
});

describe('HTTP/1.1 framing: a connection opened ahead', () => {
  it('an answer arriving before any request was sent on it: the connection is closed, and the first request gets its own answer on a new one', async () => {
    const s = (server = await startHostileServer('control'));
    const conn = new H1Connection(targetOf({ baseUrl: s.url }), TIMEOUT_MS);
    clients.push({ close: async () => conn.destroy() });
    // opened ahead, as a rate phase's first connections are before its start
    await conn.open();
    await s.accepted(1);
    s.sendStray();
    await within(s.clientClosed(1), CLOSE_DEADLINE_MS);
    const got = await new Promise<Outcome>((resolve) => {
      const c = collector(PATHS[0], resolve);
      conn.dispatch(compileH1(PHASE, s.url)![0]!, { onConnect: () => undefined, onHeaders: (st) => (c.headers(st), true), onData: (d) => (c.data(d), true), onComplete: () => c.complete(), onError: (e) => c.error(e) });
    });
    expect(got.outcome).toBe('ok');
    expect(s.connectionOf).toEqual([2]);
  });
});
