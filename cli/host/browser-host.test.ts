import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createFakeEngine, describeTransportCases } from '../../engine/host/test-support/api-cases.js';
import { startBrowserHost, type BrowserHost } from './browser-host.js';
import { connectNode } from './test-support/node-client.js';

let staticDir: string;
let outside: string;

beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), 'loadscope-host-'));
  staticDir = join(base, 'renderer');
  outside = join(base, 'secret.txt');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loadscope</title><script type="module" src="./assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("hi")');
  writeFileSync(outside, 'secret');
  symlinkSync(outside, join(staticDir, 'assets', 'link.txt'));
});
afterAll(() => {
  rmSync(join(staticDir, '..'), { recursive: true, force: true });
});

describeTransportCases('browser host (HTTP + WebSocket)', async () => {
  const engine = createFakeEngine();
  const host = await startBrowserHost({ engine, port: 0, staticDir });
  const base = `http://127.0.0.1:${host.port}`;
  const { api, transport } = connectNode(base, host.token);
  return {
    engine,
    api,
    transport,
    callUnknown: () => post(host, '/api/runs:explode', {}).then((r) => (r.status === 200 ? r.body : Promise.reject(new Error(JSON.stringify(r))))),
    settle: () => vi.waitFor(() => expect(host.clientCount()).toBe(1)),
    close: async () => {
      transport.close();
      await host.close();
    },
  };
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so tests can set Host and Origin headers that fetch would not let them. */
function raw(host: BrowserHost, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, method, path, headers: { host: `127.0.0.1:${host.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function post(host: BrowserHost, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return raw(host, 'POST', path, { 'content-type': 'application/json', 'x-loadscope-token': host.token, ...headers }, JSON.stringify(body));
}

function upgrade(url: string, origin?: string): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

describe('browser host security', () => {
  let host: BrowserHost;
  afterEach(async () => {
    await host.close();
  });
  const start = async () => {
    host = await startBrowserHost({ engine: createFakeEngine(), staticDir, maxBodyBytes: 64 * 1024 });
    return host;
  };

  it('listens on 127.0.0.1 with a fresh token in its URL', async () => {
    await start();
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(40);
    const other = await startBrowserHost({ engine: createFakeEngine(), staticDir });
    expect(other.token).not.toBe(host.token);
    await other.close();
  });

  it('answers a call without the token, or with a wrong one, with 401', async () => {
    await start();
    const missing = await raw(host, 'POST', '/api/scenarios:list', { 'content-type': 'application/json' }, '{}');
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body)).toMatchObject({ code: 'LS_ERR_UNAUTHORIZED' });
    // one character changed (never to itself: a random token starts with 'x' one time in 64)
    const wrong = (host.token.startsWith('x') ? 'y' : 'x') + host.token.slice(1);
    expect((await post(host, '/api/scenarios:list', {}, { 'x-loadscope-token': wrong })).status).toBe(401);
    expect((await post(host, '/api/scenarios:list', {})).status).toBe(200);
  });

  it('refuses the event socket without the right token, from another origin, or on another path', async () => {
    await start();
    const base = `ws://127.0.0.1:${host.port}`;
    const origin = `http://127.0.0.1:${host.port}`;
    expect(await upgrade(`${base}/events?token=${host.token}`, origin)).toBe('open');
    expect(await upgrade(`${base}/events`, origin)).toBe(401);
    expect(await upgrade(`${base}/events?token=nope`, origin)).toBe(401);
    expect(await upgrade(`${base}/events?token=${host.token}`, 'http://evil.example')).toBe(403);
    expect(await upgrade(`${base}/other?token=${host.token}`, origin)).toBe(404);
  });

  it('refuses a foreign Origin and a rebound Host name, even with the token', async () => {
    await start();
    const foreign = await post(host, '/api/scenarios:list', {}, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 'LS_ERR_NOT_LOOPBACK' });
    expect((await post(host, '/api/scenarios:list', {}, { origin: `http://localhost:${host.port}` })).status).toBe(403);
    expect((await post(host, '/api/scenarios:list', {}, { host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await raw(host, 'GET', '/', { host: `rebound.example:${host.port}` })).status).toBe(403);
    expect((await post(host, '/api/scenarios:list', {}, { origin: `http://127.0.0.1:${host.port}` })).status).toBe(200);
  });

  it('serves the renderer with a strict CSP and security headers', async () => {
    await start();
    const index = await raw(host, 'GET', '/?token=abc', {});
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Loadscope</title>');
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect(index.headers['x-frame-options']).toBe('DENY');
    const script = await raw(host, 'GET', '/assets/app.js', {});
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await raw(host, 'GET', '/history', {})).body).toContain('<title>Loadscope</title>');
    const call = await post(host, '/api/scenarios:list', {});
    expect(call.headers['content-security-policy']).toBe(csp);
  });

  it('refuses path traversal, symlinks out of the folder, and never lists a directory', async () => {
    await start();
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/assets/..%5c..%5csecret.txt', '/%00.js']) {
      const answer = await raw(host, 'GET', path, {});
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.body, path).not.toContain('secret');
    }
    const link = await raw(host, 'GET', '/assets/link.txt', {});
    expect(link.status).toBe(403);
    expect(link.body).not.toBe('secret');
    const dir = await raw(host, 'GET', '/assets/', {});
    expect(dir.body).not.toContain('link.txt');
    expect((await raw(host, 'GET', '/nothing.js', {})).status).toBe(404);
    expect((await raw(host, 'DELETE', '/', {})).status).toBe(405);
  });

  it('caps request bodies and wants JSON', async () => {
    await start();
    const big = await post(host, '/api/scenarios:validate', { text: 'x'.repeat(100 * 1024) });
    expect(big.status).toBe(413);
    const form = await raw(host, 'POST', '/api/scenarios:list', { 'content-type': 'text/plain', 'x-loadscope-token': host.token }, '{}');
    expect(form.status).toBe(415);
    const notJson = await raw(host, 'POST', '/api/scenarios:list', { 'content-type': 'application/json', 'x-loadscope-token': host.token }, '{');
    expect(notJson.status).toBe(400);
  });

  it('maps contract errors to HTTP statuses: unknown call 404, bad request 400', async () => {
    await start();
    const unknown = await post(host, '/api/runs:explode', {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'LS_ERR_UNKNOWN_CALL' });
    const bad = await post(host, '/api/runs:cancel', { runId: 'seven' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).message).toMatch(/runId: /);
    const missing = await post(host, '/api/runs:get', { runId: 99 });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ code: 'LS_ERR_RUN_NOT_FOUND', message: 'run 99 not found' });
  });

  it('says the renderer is not built when it is not', async () => {
    host = await startBrowserHost({ engine: createFakeEngine(), staticDir: join(staticDir, 'nope') });
    const answer = await raw(host, 'GET', '/', {});
    expect(answer.status).toBe(503);
    expect(answer.body).toMatch(/npm run build/);
  });
});
