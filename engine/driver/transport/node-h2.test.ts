import { createServer as createH2cServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDriver } from '../driver.js';
import { closed, req } from '../test-support/phases.js';
import { H2_WINDOW } from './node-h2-session.js';

// The h2 transport (node-h2.ts), on either of its clients (frame by frame, fast-h2-session.ts, and
// node:http2's, node-h2-session.ts): both flow-control windows opened to 2^30-1
// (node's 64 KiB defaults stall a busy session, nodejs/node#50972), and a request that waits for a
// stream the server's SETTINGS_MAX_CONCURRENT_STREAMS does not allow yet waits unsent at the client,
// so its wait shows as client queue (lag), never as the server's time.

let h2c: Http2Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (h2c === null ? resolve() : h2c.close(() => resolve())));
  h2c = null;
});

const quiet = {};
/** the driver's two h2 clients, by LOADSCOPE_FAST_H2 (index.ts) */
const TRANSPORTS = [
  ['frame by frame', '1'],
  ['node:http2', '0'],
] as const;
const errs = (e: Partial<Record<string, number>>) => Object.fromEntries(Object.entries(e).filter(([, n]) => (n ?? 0) > 0));

async function listen(settings: { maxConcurrentStreams?: number }, onStream: (stream: import('node:http2').ServerHttp2Stream) => void, onSession: (s: ServerHttp2Session) => void = () => undefined): Promise<string> {
  h2c = createH2cServer({ settings });
  h2c.on('session', onSession);
  h2c.on('stream', onStream);
  await new Promise<void>((resolve) => h2c!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(h2c.address() as AddressInfo).port}`;
}

// each test runs on both h2 clients: frame by frame (fast-h2-session.ts, the default) and node:http2's (the switch off)
for (const [client, flag] of TRANSPORTS) {
  describe(`h2 sessions (${client})`, () => {
    beforeEach(() => {
      process.env.LOADSCOPE_FAST_H2 = flag;
    });
    afterEach(() => {
      delete process.env.LOADSCOPE_FAST_H2;
    });

    it('a server allowing 1 stream at a time, 4 users on one session: one stream open at once, the others wait as client queue', async () => {
      let open = 0;
      let most = 0;
      let refused = 0;
      const url = await listen({ maxConcurrentStreams: 1 }, (stream) => {
        most = Math.max(most, ++open);
        stream.on('close', () => {
          open--;
          if (stream.rstCode === 7 /* REFUSED_STREAM */) refused++;
        });
        // each answer takes at least 100 ms: a request behind another waits at least that long
        setTimeout(() => {
          stream.respond({ ':status': 200 });
          stream.end('ok');
        }, 100);
      });
      const result = await runDriver({ baseUrl: url, protocol: 'h2c', streams: 4, phases: [closed(4, { count: 8 })] }, quiet);
      const p = result.phases[0]!.result;
      expect(p.ok).toBe(8);
      expect(most).toBe(1);
      expect(refused).toBe(0);
      // the 4th user's first request waited for three answers of >= 100 ms each, unsent
      expect(p.lag.max).toBeGreaterThanOrEqual(299);
    });

    it('requests past their deadline on a shared session: just their streams are reset (CANCEL), the session is kept for the next ones', async () => {
      let sessions = 0;
      const resets: number[] = [];
      const url = await listen(
        {},
        // never answered: each request ends at its deadline
        (stream) => stream.on('close', () => resets.push(stream.rstCode ?? -1)),
        () => sessions++,
      );
      const result = await runDriver({ baseUrl: url, protocol: 'h2c', streams: 2, phases: [closed(2, { count: 4, timeoutMs: 500 })] }, quiet);
      expect(errs(result.phases[0]!.result.errors)).toEqual({ timeout: 4 });
      // the probe's session, then one the two users shared for all four requests
      expect(sessions).toBe(2);
      // the streams were reset by the client with CANCEL (8); the last one's reset may race the end of the run
      expect(resets.filter((c) => c === 8).length).toBeGreaterThanOrEqual(3);
    });

    it('both windows at 2^30-1: the server sees the stream window in SETTINGS and the connection window raised', async () => {
      const seen: { stream: number; connection: number }[] = [];
      const url = await listen({}, (stream) => {
        const session = stream.session!;
        seen.push({ stream: session.remoteSettings.initialWindowSize ?? 0, connection: session.state.remoteWindowSize ?? 0 });
        stream.respond({ ':status': 200 });
        stream.end('ok');
      });
      const result = await runDriver({ baseUrl: url, protocol: 'h2c', phases: [closed(1, { count: 1 })] }, quiet);
      expect(result.phases[0]!.result.ok).toBe(1);
      expect(seen).toEqual([{ stream: H2_WINDOW, connection: H2_WINDOW }]);
    });

    it('a template with placeholders in its path, a header and its body: each request goes as built (its header block encoded per request)', async () => {
      const got: string[] = [];
      h2c = createH2cServer();
      h2c.on('stream', (stream, headers) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          got.push(`${String(headers[':method'])} ${String(headers[':path'])} ${String(headers['x-n'])} ${Buffer.concat(chunks).toString()}`);
          stream.respond({ ':status': 200 });
          stream.end();
        });
      });
      await new Promise<void>((resolve) => h2c!.listen(0, '127.0.0.1', resolve));
      const template = req('/items/{{counter}}', { method: 'POST', headers: { 'x-n': 'n{{counter}}' }, body: 'body {{counter}}' });
      const result = await runDriver({ baseUrl: `http://127.0.0.1:${(h2c.address() as AddressInfo).port}`, protocol: 'h2c', phases: [{ ...closed(1, { count: 3 }), requests: [template] }] }, quiet);
      expect(result.phases[0]!.result.ok).toBe(3);
      // {{counter}} counts per request (the same value wherever it stands in one request)
      expect(got).toEqual([1, 2, 3].map((n) => `POST /items/${n} n${n} body ${n}`));
    });
  });
}
