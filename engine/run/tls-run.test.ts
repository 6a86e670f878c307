import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, stopAll } from '../../servers/test-support/servers.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// Whole runs over TLS, as `loadscope run file.json` starts them (real SQLite store, the driver's
// worker from dist/, real bundled servers over https on 127.0.0.1). A bundled https server in the
// scenario is trusted by exactly the certificate it made; an external https target with a
// self-signed certificate is refused before any load, with one line naming tls.ca and tls.insecure.

const temp = useTempEngine('tls');
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-tls-'));
});
afterEach(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

const phases = [{ name: 'fib', executor: 'closed', users: 2, count: 20, requests: [{ path: '/fib?n=15' }] }];

async function run(server: Record<string, unknown>) {
  const text = JSON.stringify({ name: 'tls', servers: [server], phases });
  const file = join(dir, 'tls.json');
  writeFileSync(file, text);
  const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {} });
  await temp.engine.waitForRun(runId);
  return temp.engine.handlers['runs:get']({ runId });
}

describe('runs over TLS', () => {
  it('a bundled server over https: every request verified against its own certificate, Server-Timing split intact', async () => {
    const result = await run({ architecture: 'single', options: { protocol: 'https' } });
    expect(result.status, result.reason ?? '').toBe('completed');
    const phase = result.targets[0]!.phases[0]!;
    expect(phase.ok).toBe(20);
    expect(phase.processing?.p50).toBeGreaterThan(0);
    expect(phase.wait).not.toBeNull();
    expect(result.targets[0]!.protocol).toBe('h1-tls');
  });

  for (const protocol of ['h2', 'h2c'] as const)
  it(`a bundled server over ${protocol}: the run speaks it, stores it with the server run, Server-Timing split intact`, async () => {
    const negotiated = protocol;
    const result = await run({ architecture: 'single', options: { protocol }, streams: 2 });
    expect(result.status, result.reason ?? '').toBe('completed');
    expect(result.targets[0]!.protocol).toBe(negotiated);
    const phase = result.targets[0]!.phases[0]!;
    expect(phase.ok).toBe(20);
    expect(phase.processing?.p50).toBeGreaterThan(0);
    expect(phase.wait).not.toBeNull();
  });

  it('an external https target with a self-signed certificate: refused before any load, naming tls.ca and tls.insecure', async () => {
    const target = await startServer('single', { protocol: 'h1-tls' });
    const result = await run({ architecture: 'external', url: target.url });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/certificate did not verify \(self[- ]signed certificate\); give its CA file as tls\.ca, or set tls\.insecure: true/);
    expect(result.reason).not.toContain('\n');
    expect(result.targets[0]?.phases ?? []).toHaveLength(0);
  });

  it('tls.insecure runs against the self-signed certificate', async () => {
    const target = await startServer('single', { protocol: 'h1-tls' });
    const result = await run({ architecture: 'external', url: target.url, tls: { insecure: true } });
    expect(result.status, result.reason ?? '').toBe('completed');
    // stated with the run, where its figures are read
    expect(result.engineNote).toBe("external: tls.insecure: the server's certificate was not verified");
    expect(result.targets[0]!.phases[0]!.ok).toBe(20);
    expect(result.targets[0]!.phases[0]!.processing?.p50).toBeGreaterThan(0);
  });

  it('tls.ca (a file beside the scenario) trusts the certificate; another certificate as tls.ca does not', async () => {
    const target = await startServer('single', { protocol: 'h1-tls' });
    const other = await startServer('single', { protocol: 'h1-tls' });
    writeFileSync(join(dir, 'server.pem'), target.cert!);
    writeFileSync(join(dir, 'other.pem'), other.cert!);
    const trusted = await run({ architecture: 'external', url: target.url, tls: { ca: 'server.pem' } });
    expect(trusted.status, trusted.reason ?? '').toBe('completed');
    expect(trusted.targets[0]!.phases[0]!.ok).toBe(20);
    const wrong = await run({ architecture: 'external', url: target.url, tls: { ca: 'other.pem' } });
    expect(wrong.status).toBe('failed');
    expect(wrong.reason).toMatch(/did not verify .*tls\.ca.*tls\.insecure/);
  });

  it('a tls.ca file that is not there is a scenario error naming its JSON path', async () => {
    const text = JSON.stringify({ name: 'tls', servers: [{ architecture: 'external', url: 'https://127.0.0.1:1', tls: { ca: 'missing.pem' } }], phases });
    const file = join(dir, 'tls.json');
    writeFileSync(file, text);
    await expect(temp.engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {} })).rejects.toThrow(/servers\[0\]\.tls\.ca: .*missing\.pem does not exist/);
  });
});
