import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { k6Status } from '../k6/k6-binary.js';
import { skipUnless } from '../test-support/skip.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { CLIENT_CN, SERVER_NAME, startClientCertServer, type ClientCertServer } from './test-support/client-cert-server.js';

// A scenario's TLS client certificate (tls.cert, tls.key) and SNI name (tls.servername) against an
// https server on 127.0.0.1 that requires both: a client certificate from its own CA, and the name
// it has a certificate for, asked by SNI. Whole runs as `loadscope run file.json` starts them (files
// beside the scenario, real SQLite), natively and with k6 (which shows a client certificate but sends
// no SNI name of its own). The server logs what reached it; the readiness probe shows the load's
// certificate and name too (it waited 15 s for an answer that never came), and a server that
// refuses the handshake fails the run at once, in one line naming tls.cert and tls.key.

const temp = useTempEngine('client-cert');
const k6 = k6Status();
let dir = '';
let server: ClientCertServer | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-client-cert-'));
});
afterEach(async () => {
  await server?.close();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

/** The server, with its CA and the client's certificate and key written beside the scenario. */
async function start(sni: 'required' | 'optional'): Promise<ClientCertServer> {
  server = await startClientCertServer(sni);
  writeFileSync(join(dir, 'ca.pem'), server.ca);
  writeFileSync(join(dir, 'client.pem'), server.client.cert);
  writeFileSync(join(dir, 'client.key'), server.client.key);
  return server;
}

async function run(s: ClientCertServer, tls: Record<string, unknown>, engine?: 'k6') {
  const text = JSON.stringify({ name: 'client-cert', servers: [{ architecture: 'external', url: s.url, tls }], phases: [{ name: 'load', executor: 'closed', users: 2, count: 10, requests: [{ path: '/' }] }] });
  const file = join(dir, 'client-cert.json');
  writeFileSync(file, text);
  const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {}, ...(engine && { engine }) });
  await temp.engine.waitForRun(runId);
  return temp.engine.handlers['runs:get']({ runId });
}

const REFUSED = /^https:\/\/127\.0\.0\.1:\d+ refused the TLS handshake \((tlsv13 alert certificate required|sslv3 alert handshake failure)\); it may ask for a client certificate it trusts \(tls\.cert and tls\.key\) or an SNI name \(tls\.servername\)$/;

describe('a server that requires a client certificate and an SNI name', () => {
  it('tls.cert, tls.key, tls.servername and tls.ca: every request answered, every handshake showing the certificate and asking for the name', async () => {
    const s = await start('required');
    const result = await run(s, { ca: 'ca.pem', cert: 'client.pem', key: 'client.key', servername: SERVER_NAME });
    expect(result.status, result.reason ?? '').toBe('completed');
    expect(result.targets[0]!.phases[0]!.ok).toBe(10);
    // readiness, the driver's probe and the load's connections alike
    expect(s.handshakes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(s.handshakes.map((h) => `${h.servername} ${h.clientCn}`))).toEqual(new Set([`${SERVER_NAME} ${CLIENT_CN}`]));
  });

  it('no tls.cert: the run fails at once, in one line naming tls.cert and tls.key, and nothing is answered', async () => {
    const s = await start('required');
    const result = await run(s, { ca: 'ca.pem', servername: SERVER_NAME });
    expect(result.status).toBe('failed');
    expect(result.targets[0]!.reason).toMatch(REFUSED);
    expect(result.targets[0]!.reason).toContain('certificate required');
    expect(result.targets[0]!.phases).toHaveLength(0);
    expect(s.requests).toBe(0);
  });

  it('no tls.servername (the url is an IP address, so no SNI name is sent): the run fails at once, in one line naming tls.servername', async () => {
    const s = await start('required');
    const result = await run(s, { ca: 'ca.pem', cert: 'client.pem', key: 'client.key' });
    expect(result.status).toBe('failed');
    expect(result.targets[0]!.reason).toMatch(REFUSED);
    expect(s.requests).toBe(0);
  });
});

describe('k6 and a server that requires a client certificate', skipUnless(k6.available, k6.hint), () => {
  it('tls.cert and tls.key (k6 cannot send an SNI name, so the server does not ask for one): every request answered, each handshake showing the certificate', async () => {
    const s = await start('optional');
    const result = await run(s, { insecure: true, cert: 'client.pem', key: 'client.key' }, 'k6');
    expect(result.status, result.reason ?? '').toBe('completed');
    expect(result.engine).toBe('k6');
    expect(result.targets[0]!.phases[0]!.ok).toBe(10);
    expect(s.handshakes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(s.handshakes.map((h) => h.clientCn))).toEqual(new Set([CLIENT_CN]));
  });

  it('no tls.cert: the run fails at once, in one line naming tls.cert and tls.key, before k6 sends anything', async () => {
    const s = await start('optional');
    const result = await run(s, { insecure: true }, 'k6');
    expect(result.status).toBe('failed');
    expect(result.targets[0]!.reason).toMatch(REFUSED);
    expect(s.requests).toBe(0);
  });
});
