import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTransport } from '../../servers/front-transport.js';
import { startServer, stopAll } from '../../servers/test-support/servers.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { exportK6 } from './export-k6.js';
import { k6Status } from './k6-binary.js';
import { skipUnless } from '../test-support/skip.js';
import { startBadCertServer } from './test-support/bad-cert-server.js';

// The k6 export carries TLS where k6 can (insecureSkipTLSVerify, tlsAuth; h2 k6 negotiates itself)
// and refuses, in one line naming the JSON path, what a script written out cannot: a CA file, an SNI
// name, h2c, a bundled server's own certificate. With real k6 (where installed): tls.insecure runs
// over https, and a run here trusts a bundled server's own certificate (h2 by ALPN) and an external
// server's tls.ca, reaching it by its tls.servername, as the native driver does.

const temp = useTempEngine('k6-tls');
const k6 = k6Status();
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-tls-'));
});
afterEach(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

const phases = [{ name: 'load', executor: 'closed', users: 2, count: 10, requests: [{ path: '/fib?n=12' }] }];

function scenarioFile(server: Record<string, unknown>): string {
  const file = join(dir, 'tls.json');
  writeFileSync(file, JSON.stringify({ name: 'k6-tls', servers: [server], phases }));
  return file;
}

describe('k6 and TLS', () => {
  it('tls.insecure and a client certificate are carried (insecureSkipTLSVerify, tlsAuth), the key escaped as data', async () => {
    const { tls } = await makeTransport('h1-tls');
    writeFileSync(join(dir, 'client.pem'), tls!.cert);
    // a hostile key file: quotes, a backtick and a line that would end the PLAN literal
    writeFileSync(join(dir, 'client.key'), `${tls!.key}"\`;\nprocess.exit(1);//`);
    const script = exportK6(scenarioFile({ architecture: 'external', url: 'https://127.0.0.1:8443', tls: { insecure: true, cert: 'client.pem', key: 'client.key' } }));
    expect(script).toContain('insecureSkipTLSVerify: PLAN.tls.insecure');
    expect(script).toContain('tlsAuth: PLAN.tls.auth');
    const plan = /const PLAN = ([\s\S]*?);\n/.exec(script)![1]!;
    const parsed = JSON.parse(plan) as { tls: { insecure: boolean; auth: Array<{ domains: string[]; cert: string; key: string }> } };
    expect(parsed.tls.insecure).toBe(true);
    expect(parsed.tls.auth).toEqual([{ domains: ['127.0.0.1'], cert: tls!.cert, key: `${tls!.key}"\`;\nprocess.exit(1);//` }]);
    expect(script).toMatch(/\/\/ tls\.insecure: k6 does not verify/);
  });

  it.each([
    [{ architecture: 'single', options: { protocol: 'h2' } }, /servers\[0\]\.options\.protocol: a script written out cannot carry the bundled server's own certificate .*loadscope run --engine k6/],
    [{ architecture: 'single', options: { protocol: 'h2c' } }, /servers\[0\]\.options\.protocol: k6 speaks h2c only in its gRPC client, and this scenario sends other requests/],
    [{ architecture: 'external', url: 'http://127.0.0.1:8080', protocol: 'h2c' }, /servers\[0\]\.protocol: k6 speaks h2c only in its gRPC client, and this scenario sends other requests/],
    [{ architecture: 'external', url: 'https://127.0.0.1:8443', tls: { ca: 'ca.pem' } }, /servers\[0\]\.tls\.ca: a script written out cannot carry a CA file .*set tls\.insecure/],
    [{ architecture: 'external', url: 'https://127.0.0.1:8443', tls: { servername: 'example.test' } }, /servers\[0\]\.tls\.servername: a script written out cannot carry an SNI name/],
  ])('refuses in a script written out what k6 cannot take there, in one line naming the path (%o)', (server, reason) => {
    writeFileSync(join(dir, 'ca.pem'), 'x');
    expect(() => exportK6(scenarioFile(server))).toThrow(reason);
  });

  it("a client key from outside the scenario's folder is not copied into the script without --allow-files", () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'loadscope-k6-keys-'));
    try {
      writeFileSync(join(elsewhere, 'id_rsa'), '-----BEGIN PRIVATE KEY-----\nsecret-key-bytes\n-----END PRIVATE KEY-----\n');
      writeFileSync(join(dir, 'client.pem'), '-----BEGIN CERTIFICATE-----\ncert\n-----END CERTIFICATE-----\n');
      const file = scenarioFile({ architecture: 'external', url: 'https://127.0.0.1:8443', tls: { cert: 'client.pem', key: join(elsewhere, 'id_rsa') } });
      expect(() => exportK6(file)).toThrow(/files from outside the scenario's folder: ".*id_rsa".*--allow-files/);
      // the refusal names the file, never its bytes
      try {
        exportK6(file);
      } catch (err) {
        expect(String(err)).not.toContain('secret-key-bytes');
      }
      expect(exportK6(file, { allowFiles: true })).toContain('secret-key-bytes');
      // the scenario's own files need no consent
      writeFileSync(join(dir, 'client.key'), 'own-key');
      expect(exportK6(scenarioFile({ architecture: 'external', url: 'https://127.0.0.1:8443', tls: { cert: 'client.pem', key: 'client.key' } }))).toContain('own-key');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('real k6 with tls.insecure: a run over https against a self-signed certificate', skipUnless(k6.available, k6.hint), async () => {
    const target = await startServer('single', { protocol: 'h1-tls' });
    const text = JSON.stringify({ name: 'k6-tls', servers: [{ architecture: 'external', url: target.url, tls: { insecure: true } }], phases });
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin: scenarioFile({}) }, quick: false, set: {}, engine: 'k6' });
    await temp.engine.waitForRun(runId);
    const run = await temp.engine.handlers['runs:get']({ runId });
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.targets[0]!.phases[0]!.ok).toBe(10);
  });

  async function runK6(text: string) {
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin: scenarioFile({}) }, quick: false, set: {}, engine: 'k6' });
    await temp.engine.waitForRun(runId);
    return temp.engine.handlers['runs:get']({ runId });
  }

  it("real k6, a bundled h2 server: trusts the server's own certificate only and speaks to it, every request answered", skipUnless(k6.available, k6.hint), async () => {
    const run = await runK6(JSON.stringify({ name: 'k6-h2', servers: [{ architecture: 'single', options: { protocol: 'h2' } }], phases }));
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.targets[0]!.phases[0]!.ok).toBe(10);
  });

  it('real k6, an external server whose certificate names only another host: tls.ca and tls.servername make every request verify', skipUnless(k6.available, k6.hint), async () => {
    const server = await startBadCertServer('wrong-name');
    try {
      writeFileSync(join(dir, 'evil-ca.pem'), server.cert);
      const tls = { ca: join(dir, 'evil-ca.pem'), servername: 'evil.example' };
      const run = await runK6(JSON.stringify({ name: 'k6-servername', servers: [{ architecture: 'external', url: server.url, tls }], phases }));
      expect(run.status, run.reason ?? '').toBe('completed');
      expect(run.targets[0]!.phases[0]!.ok).toBe(10);
      expect(server.requests('/fib?n=12')).toBe(10);
    } finally {
      await server.close();
    }
  });
});
