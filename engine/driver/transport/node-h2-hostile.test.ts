import { createServer as createH2cServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDriver } from '../driver.js';
import { closed, req } from '../test-support/phases.js';
import { ackSettings, flood, frame, FRAME, literalHeaders, serverSettings, settings, startRawH2, type RawH2Peer } from './test-support/h2-peers.js';

// The h2 transport, on either of its clients (frame by frame: fast-h2-session.ts; node:http2's:
// node-h2-session.ts), never trusts its peer: a server that
// never sends SETTINGS, sends an endless header block, floods PING and SETTINGS, opens a zero window
// and never updates it, or sends GOAWAY mid-run: each run ends with every request counted (an answer
// or an error of its kind), the client ends the hostile connection itself, and what the peer could
// push at it is bounded. Against real servers on 127.0.0.1, through the driver from dist/.

let peer: RawH2Peer | null = null;
let h2c: Http2Server | null = null;
afterEach(async () => {
  await peer?.close();
  peer = null;
  await new Promise<void>((resolve) => (h2c === null ? resolve() : h2c.close(() => resolve())));
  h2c = null;
});

const quiet = {};
/** the driver's two h2 clients, by LOADSCOPE_FAST_H2 (index.ts) */
const TRANSPORTS = [
  ['frame by frame', '1'],
  ['node:http2', '0'],
] as const;
const MB = 1024 * 1024;
const errs = (e: Partial<Record<string, number>>) => Object.fromEntries(Object.entries(e).filter(([, n]) => (n ?? 0) > 0));
const total = (e: Partial<Record<string, number>>) => Object.values(e).reduce<number>((a, n) => a + (n ?? 0), 0);

async function listenH2c(onSession: (s: ServerHttp2Session) => void, onStream: (session: ServerHttp2Session, stream: import('node:http2').ServerHttp2Stream) => void): Promise<string> {
  h2c = createH2cServer();
  h2c.on('session', onSession);
  h2c.on('stream', (stream) => onStream(stream.session as ServerHttp2Session, stream));
  await new Promise<void>((resolve) => h2c!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(h2c.address() as AddressInfo).port}`;
}

// each test runs on both h2 clients: frame by frame (fast-h2-session.ts, the default) and node:http2's (the switch off)
for (const [client, flag] of TRANSPORTS) {
  describe(`h2 sessions against hostile peers (${client})`, () => {
    beforeEach(() => {
      process.env.LOADSCOPE_FAST_H2 = flag;
    });
    afterEach(() => {
      delete process.env.LOADSCOPE_FAST_H2;
    });

    it('a server that never sends SETTINGS nor answers: each request ends at its deadline as a timeout, the run ends', async () => {
      peer = await startRawH2({});
      const result = await runDriver({ baseUrl: peer.url, protocol: 'h2c', phases: [closed(2, { count: 4, timeoutMs: 800 })] }, quiet);
      const p = result.phases[0]!.result;
      expect(p.ok).toBe(0);
      expect(errs(p.errors)).toEqual({ timeout: 4 });
    });

    it('an endless header block (CONTINUATION for ever): the request fails as a protocol error, the client drops the connection within a bound', async () => {
      peer = await startRawH2({
        onPreface: (c) => serverSettings(c),
        onFrame: (c, type, flags, stream) => {
          ackSettings(c, type, flags);
          if (type !== FRAME.HEADERS) return;
          let i = 0;
          c.send(frame(FRAME.HEADERS, 0, stream, literalHeaders([[':status', '200']])));
          const block = (): Buffer => literalHeaders(Array.from({ length: 4 }, () => [`x-flood-${i++}`, 'a'.repeat(4000)] as const));
          flood(c, () => frame(FRAME.CONTINUATION, 0, stream, block()), 256 * MB);
        },
      });
      const result = await runDriver({ baseUrl: peer.url, protocol: 'h2c', phases: [closed(1, { count: 2, timeoutMs: 5000 })] }, quiet);
      const p = result.phases[0]!.result;
      expect(p.ok).toBe(0);
      expect(errs(p.errors)).toEqual({ protocol: 2 });
      // each of the two connections was ended by the client long before the peer's 256 MB
      expect(peer.stats.clientClosed).toBe(peer.stats.connections);
      expect(peer.stats.written).toBeLessThan(16 * MB);
    });

    it('a flood of PING and SETTINGS frames while requests wait: every request counted as a protocol error, the client ends the flooding connection', async () => {
      peer = await startRawH2({
        onPreface: (c) => {
          serverSettings(c);
          let n = 0;
          // never answers a request; reads (and drops) the client's ACKs
          flood(c, () => (n++ % 2 === 0 ? frame(FRAME.PING, 0, 0, Buffer.alloc(8)) : settings()), 256 * MB);
        },
        onFrame: (c, type, flags) => ackSettings(c, type, flags),
      });
      const result = await runDriver({ baseUrl: peer.url, protocol: 'h2c', phases: [closed(2, { count: 4, timeoutMs: 1500 })] }, quiet);
      const p = result.phases[0]!.result;
      expect(p.ok).toBe(0);
      // nghttp2's flood guard ends the session; what was on it, and waiting for it, fails as the peer's breach
      expect(errs(p.errors)).toEqual({ protocol: 4 });
      expect(peer.stats.clientClosed).toBe(peer.stats.connections);
      expect(peer.stats.written).toBeLessThan(256 * MB);
    });

    it('a zero window never updated: no POST body byte past the initial windows, each request times out, the run ends', async () => {
      let dataBytes = 0;
      peer = await startRawH2({
        // SETTINGS_INITIAL_WINDOW_SIZE (0x4) = 0: no stream may send a DATA byte
        onPreface: (c) => serverSettings(c, [[0x4, 0]]),
        onFrame: (c, type, flags, _stream, payload) => {
          ackSettings(c, type, flags);
          if (type === FRAME.DATA) dataBytes += payload.length;
        },
      });
      const body = 'x'.repeat(64 * 1024);
      const phase = { ...closed(2, { count: 4, timeoutMs: 800 }), requests: [req('/upload', { method: 'POST' as const, body })] };
      const result = await runDriver({ baseUrl: peer.url, protocol: 'h2c', phases: [phase] }, quiet);
      const p = result.phases[0]!.result;
      expect(errs(p.errors)).toEqual({ timeout: 4 });
      // at most what the connection's own window let through before the SETTINGS came (the peer never updated it)
      expect(dataBytes).toBeLessThanOrEqual(peer.stats.connections * 65_535);
      expect(peer.stats.requests).toBe(4);
    });

    it('GOAWAY after every 5th answer (one user, one stream): nothing lost, each next request goes on a new session', async () => {
      let sessions = 0;
      const url = await listenH2c(
        () => sessions++,
        (session, stream) => {
          stream.respond({ ':status': 200 });
          stream.end('ok');
          if ((stream.id ?? 0) >= 9) session.close();
        },
      );
      const result = await runDriver({ baseUrl: url, protocol: 'h2c', phases: [closed(1, { count: 20 })] }, quiet);
      const p = result.phases[0]!.result;
      expect(p.ok).toBe(20);
      expect(errs(p.errors)).toEqual({});
      // the probe's session, then one per 5 requests (stream ids 1, 3, 5, 7, 9)
      expect(sessions).toBe(1 + 4);
    });

    it('GOAWAY with an error and the session destroyed mid-run, 4 streams in flight: the lost ones count as resets, the run goes on to its count on new sessions', async () => {
      let sessions = 0;
      let answered = 0;
      const url = await listenH2c(
        () => sessions++,
        (session, stream) => {
          if (++answered === 10) {
            session.goaway(2 /* INTERNAL_ERROR */);
            session.destroy();
            return;
          }
          stream.respond({ ':status': 200 });
          stream.end('ok');
        },
      );
      const result = await runDriver({ baseUrl: url, protocol: 'h2c', streams: 4, phases: [closed(4, { count: 40, timeoutMs: 5000 })] }, quiet);
      const p = result.phases[0]!.result;
      expect(p.ok + total(p.errors)).toBe(40);
      expect(p.ok).toBeGreaterThan(20);
      // the session ended by the server's GOAWAY (INTERNAL_ERROR): a reset, as a dropped connection
      expect(Object.keys(errs(p.errors))).toEqual(['reset']);
      expect(sessions).toBeGreaterThanOrEqual(3);
    });
  });
}
