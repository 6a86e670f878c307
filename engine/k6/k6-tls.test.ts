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

// The k6 export carries TLS where k6 can (insecureSkipTLSVerify, tlsAuth; h2 k6 negotiates itself)
// and refuses, in one line naming the JSON path, what it cannot: a CA file, an SNI name, h2c, a
// bundled server's own certificate. With real k6 (where installed): tls.insecure runs over https.

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
    [{ architecture: 'single', options: { protocol: 'h2' } }, /servers\[0\]\.options\.protocol: k6 cannot be given the bundled server's own certificate/],
    [{ architecture: 'single', options: { protocol: 'h2c' } }, /servers\[0\]\.options\.protocol: k6 does not speak h2c/],
    [{ architecture: 'external', url: 'http://127.0.0.1:8080', protocol: 'h2c' }, /servers\[0\]\.protocol: k6 does not speak h2c/],
    [{ architecture: 'external', url: 'https://127.0.0.1:8443', tls: { ca: 'ca.pem' } }, /servers\[0\]\.tls\.ca: k6 cannot trust a CA file .*set tls\.insecure/],
    [{ architecture: 'external', url: 'https://127.0.0.1:8443', tls: { servername: 'example.test' } }, /servers\[0\]\.tls\.servername: k6 cannot send an SNI name/],
  ])('refuses what k6 cannot do, in one line naming the path (%o)', (server, reason) => {
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
});
