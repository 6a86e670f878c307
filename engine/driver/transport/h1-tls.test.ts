import type { LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorKindOf } from '../../../contract/measurement.js';
import { makeTransport } from '../../../servers/front-transport.js';
import { startServer, stopAll } from '../../../servers/test-support/servers.js';
import { setTargetResolver } from '../../net/target-guard.js';
import { classifyError } from '../measure/errors.js';
import { burst, req } from '../test-support/phases.js';
import type { RequestHandler } from './connection.js';
import { FastH1Transport } from './fast-h1.js';
import { transportFor } from './index.js';
import { targetOf } from './target.js';
import type { TransportContext } from './transport.js';
import { UndiciTransport } from './undici-h1.js';
import { startTlsPeer, type TlsPeer, type TlsPeerKind } from './test-support/tls-peers.js';
import type { DriverTls } from '../types.js';

// HTTP/1.1 over TLS on the fast path (issue 42, h1-endpoint.ts) reads everything as undici over TLS
// does: the same requests go through the fast path's transport and through undici's (the driver's
// slow path) towards the same bundled https server (from dist/: build first) and the same hostile
// TLS peers (test-support/tls-peers.ts), and each request's status, body, Server-Timing metric names,
// error kind and error code must agree: a verified certificate, a certificate that does not verify,
// a wrong servername, a server closing or stalling mid-handshake, a slowloris that never finishes its headers,
// an h2-only server. The loopback guard holds on the address a TLS connection goes to.

/** each request's deadline: the slowloris's answer never completes, and both paths give up at it */
const TIMEOUT_MS = 3000;
const PATHS = ['/fib?n=5', '/nope', '/fib?n=x'] as const;
const PHASE = burst(1, '/', { timeoutMs: TIMEOUT_MS, requests: PATHS.map((p) => req(p)) });
const CTX: TransportContext = { slots: 1, columns: [], connections: null, readsHeaders: false, warm: [] };

/** What a client made of one request: its answer, or its error's kind and code. */
interface Outcome {
  status: number;
  body: string;
  /** the Server-Timing header with its durations taken out (they differ per request) */
  timing: string;
  kind: string | null;
  code: string | null;
}

/** the two HTTP/1.1 transports (their send takes a plain RequestHandler: no stream is opened here) */
type Make = (url: string, tls: DriverTls) => FastH1Transport | UndiciTransport;
const fastPath: Make = (url, tls) => new FastH1Transport(targetOf({ baseUrl: url, tls }), PHASE, CTX);
const undiciPath: Make = (url, tls) => new UndiciTransport(targetOf({ baseUrl: url, tls }), PHASE, CTX);

function sendOne(transport: FastH1Transport | UndiciTransport, template: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const got: Outcome = { status: 0, body: '', timing: '', kind: null, code: null };
    const handler: RequestHandler = {
      onConnect: () => undefined,
      onHeaders: (status, raw) => {
        got.status = status;
        for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toString('latin1').toLowerCase() === 'server-timing') got.timing = raw[i + 1]!.toString('latin1').replace(/dur=[\d.]+/g, 'dur=N');
        return true;
      },
      onData: (chunk) => ((got.body += chunk.toString('latin1')), true),
      onComplete: () => resolve(got),
      onError: (err) => {
        const code = (err as { code?: unknown }).code;
        resolve({ ...got, kind: errorKindOf(classifyError(err)), code: typeof code === 'string' ? code : null });
      },
    };
    transport.send(0, template, null, handler, NaN);
  });
}

/** Every template in turn on one transport (a request after a failed one opens a new connection), or each on its own (`fresh`). */
async function outcomes(make: Make, url: string, tls: DriverTls, fresh = false): Promise<Outcome[]> {
  let transport = make(url, tls);
  try {
    const all: Outcome[] = [];
    for (let i = 0; i < PATHS.length; i++) {
      if (fresh && i > 0) {
        transport.destroyAll();
        transport = make(url, tls);
      }
      all.push(await sendOne(transport, i));
    }
    return all;
  } finally {
    transport.destroyAll();
  }
}

let bundled: { url: string; cert: string };
let pem: { key: string; cert: string };
let peer: TlsPeer | null = null;
beforeAll(async () => {
  const server = await startServer('single', { protocol: 'h1-tls' });
  bundled = { url: server.url, cert: server.cert! };
  pem = (await makeTransport('h1-tls')).tls!;
});
afterAll(async () => {
  await stopAll();
});
afterEach(async () => {
  setTargetResolver();
  await peer?.close();
  peer = null;
});

describe('HTTP/1.1 over TLS: the fast path is chosen', () => {
  it('an https phase with keep-alive and ordinary templates: the fast path, and undici keeps keepAlive false and flows reading headers', () => {
    const target = targetOf({ baseUrl: 'https://127.0.0.1:1', tls: { insecure: true } });
    expect(transportFor(target, PHASE, CTX)).toBeInstanceOf(FastH1Transport);
    expect(transportFor(target, { ...PHASE, keepAlive: false }, CTX)).toBeInstanceOf(UndiciTransport);
    expect(transportFor(target, PHASE, { ...CTX, readsHeaders: true })).toBeInstanceOf(UndiciTransport);
  });
});

describe('HTTP/1.1 over TLS: the fast path against undici, towards the same servers', () => {
  it('the bundled https server, its certificate as the CA: the same statuses, bodies and Server-Timing metrics', async () => {
    const tls = { insecure: false, ca: bundled.cert };
    const undici = await outcomes(undiciPath, bundled.url, tls);
    expect(undici.map((o) => o.status)).toEqual([200, 404, 400]);
    expect(undici[0]!.timing).not.toBe('');
    expect(await outcomes(fastPath, bundled.url, tls)).toEqual(undici);
    // localhost by name, its SNI name sent: the certificate names it too
    expect(await outcomes(fastPath, bundled.url.replace('127.0.0.1', 'localhost'), tls)).toEqual(undici);
  });

  it('the bundled https server with tls.insecure: answered alike without verification', async () => {
    const tls = { insecure: true };
    const undici = await outcomes(undiciPath, bundled.url, tls);
    expect(undici.map((o) => o.status)).toEqual([200, 404, 400]);
    expect(await outcomes(fastPath, bundled.url, tls)).toEqual(undici);
  });

  it('a certificate no CA vouches for: every request fails with the same kind and code on both paths', async () => {
    const tls = { insecure: false };
    const undici = await outcomes(undiciPath, bundled.url, tls);
    expect(undici.map((o) => [o.kind, o.code])).toEqual(PATHS.map(() => ['other', 'DEPTH_ZERO_SELF_SIGNED_CERT']));
    expect(await outcomes(fastPath, bundled.url, tls)).toEqual(undici);
  });

  it('a servername the certificate does not name: every request fails with the same kind and code on both paths', async () => {
    const tls = { insecure: false, ca: bundled.cert, servername: 'wrong.example' };
    // undici's Client leaves the requests after an altname failure pending, unsent (only the driver's
    // deadline ends them), so its requests go one to a Client here; the fast path's share one transport
    const undici = await outcomes(undiciPath, bundled.url, tls, true);
    expect(undici.map((o) => [o.kind, o.code])).toEqual(PATHS.map(() => ['other', 'ERR_TLS_CERT_ALTNAME_INVALID']));
    expect(await outcomes(fastPath, bundled.url, tls)).toEqual(undici);
  });

  it.each([
    ['handshake-cut', 'reset'],
    // a handshake is connect time: its stall is a connect timeout (UND_ERR_CONNECT_TIMEOUT), not a wait for headers
    ['handshake-stall', 'timeout'],
    ['slowloris', 'timeout'],
    // offered only http/1.1, the server ends the handshake (no_application_protocol)
    ['h2-only', 'other'],
  ] as const)('a hostile peer (%s): every request fails with the same kind and code on both paths, none hangs past its deadline', async (kind: TlsPeerKind, want) => {
    peer = await startTlsPeer(kind, pem);
    const tls = { insecure: false, ca: pem.cert };
    const undici = await outcomes(undiciPath, peer.url, tls);
    expect(undici.map((o) => o.kind)).toEqual(PATHS.map(() => want));
    expect(await outcomes(fastPath, peer.url, tls)).toEqual(undici);
  });
});

describe('HTTP/1.1 over TLS: the loopback guard', () => {
  it('a name resolving outside this machine fails in the lookup before connecting; a loopback name is answered', async () => {
    const fakeDns: Record<string, string> = { 'remote.test': '10.255.255.1', 'loop.test': '127.0.0.1' };
    setTargetResolver((host: string, _o: unknown, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => {
      const address = fakeDns[host];
      if (address === undefined) return cb(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
      cb(null, [{ address, family: 4 }]);
    });
    const port = new URL(bundled.url).port;
    const tls = { insecure: false, ca: bundled.cert, servername: 'localhost' };
    const remote = await outcomes(fastPath, `https://remote.test:${port}`, tls);
    expect(remote.map((o) => o.code)).toEqual(PATHS.map(() => 'LS_ERR_NOT_LOOPBACK'));
    const local = await outcomes(fastPath, `https://loop.test:${port}`, tls);
    expect(local.map((o) => o.status)).toEqual([200, 404, 400]);
  });
});
