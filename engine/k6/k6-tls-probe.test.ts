import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempEngine } from '../test-support/temp-engine.js';
import { k6Status } from './k6-binary.js';
import { skipUnless } from '../test-support/skip.js';
import { startBadCertServer, type BadCert, type BadCertServer } from './test-support/bad-cert-server.js';

// `--engine k6` against an https target whose certificate does not verify (self-signed for another
// name, or expired): the run fails before any load with the native engine's one line (what did not
// verify, tls.ca or tls.insecure), instead of completing with every request an `other` error and no
// word on TLS. Real k6 (skipped where none is installed), a real https server on 127.0.0.1.

const temp = useTempEngine('k6-tls-probe');
const k6 = k6Status();
let dir = '';
let target: BadCertServer | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-k6-tls-probe-'));
});
afterEach(async () => {
  await target?.close();
  target = null;
  rmSync(dir, { recursive: true, force: true });
});

const phases = [{ name: 'load', executor: 'closed', users: 2, count: 10, requests: [{ path: '/load' }] }];

async function runK6(server: Record<string, unknown>) {
  const text = JSON.stringify({ name: 'k6-bad-cert', servers: [server], phases });
  const origin = join(dir, 'bad-cert.json');
  writeFileSync(origin, text);
  const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin }, quick: false, set: {}, engine: 'k6' });
  await temp.engine.waitForRun(runId);
  return temp.engine.handlers['runs:get']({ runId });
}

describe('k6 against a certificate that does not verify', skipUnless(k6.available, k6.hint), () => {
  it.each([
    ['self-signed for another name', 'wrong-name', /self[- ]signed certificate/],
    ['self-signed and expired', 'expired', /\(certificate has expired\)/],
  ] as [string, BadCert, RegExp][])('a certificate %s: the run fails before any load, in the native engine\'s one line', async (_what, kind, why) => {
    target = await startBadCertServer(kind);
    const run = await runK6({ architecture: 'external', url: target.url });
    expect(run.status).toBe('failed');
    expect(run.reason).toContain(`${target.url}: the server's certificate did not verify (`);
    expect(run.reason).toMatch(why);
    expect(run.reason).toMatch(/give its CA file as tls\.ca, or set tls\.insecure: true/);
    expect(run.reason).not.toContain('\n');
    expect(run.targets[0]?.phases ?? []).toHaveLength(0);
    expect(target.requests('/load')).toBe(0);
  });

  it('the same wrong-name certificate with tls.insecure: k6 sends the load', async () => {
    target = await startBadCertServer('wrong-name');
    const run = await runK6({ architecture: 'external', url: target.url, tls: { insecure: true } });
    expect(run.status, run.reason ?? '').toBe('completed');
    expect(run.targets[0]!.phases[0]!.ok).toBe(10);
    expect(target.requests('/load')).toBe(10);
  });
});
