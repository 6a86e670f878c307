import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// TLS and h2 through the real CLI (issue 28): bundled servers over h2 and https in one scenario,
// `run --json` and `show` (text and --json) state what each server run's load spoke, and over h2 its
// connections and streams each (issue 36); `compare` of plain HTTP/1.1 against h2 over TLS says what
// the TLS side paid in one line.
// Build first: npx tsc -p tsconfig.node.json && node scripts/build-cli.mjs.

const BIN = rootPath('bin/loadscope.js');
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-protocol-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface JsonServer {
  label: string;
  protocol: string | null;
  streams: number;
  phases: Array<{ count: number; errors: Record<string, number>; processing: { mean: number } | null }>;
}

describe('the protocol a run spoke', () => {
  it('a scenario spelling https and h2: run --json and show name h2 and h1-tls (HTTP/1.1 over TLS) per server run', () => {
    const file = join(dir, 'protocols.json');
    const db = join(dir, 'runs.db');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'protocols',
        servers: [
          { label: 'over-h2', architecture: 'single', options: { protocol: 'h2' }, streams: 2 },
          { label: 'over-https', architecture: 'single', options: { protocol: 'https' } },
        ],
        phases: [{ name: 'load', executor: 'closed', users: 2, count: 10, requests: [{ path: '/fib?n=12' }] }],
      }),
    );
    const out = cli(['run', file, '--json', '--db', db]);
    expect(out.status, out.stderr).toBe(0);
    const json = JSON.parse(out.stdout) as { runId: number; servers: JsonServer[] };
    expect(json.servers.map((s) => [s.label, s.protocol])).toEqual([
      ['over-h2', 'h2'],
      ['over-https', 'h1-tls'],
    ]);
    for (const s of json.servers) {
      expect(s.phases[0]!.count).toBe(10);
      expect(s.phases[0]!.processing?.mean).toBeGreaterThan(0);
    }
    const show = cli(['show', String(json.runId), '--db', db]);
    expect(show.status, show.stderr).toBe(0);
    // issue 36: the connections it opened and the streams each, with what sets them
    expect(show.stdout).toMatch(/protocol: over-h2: h2: [12] connections?, up to 2 streams each; `streams` sets the requests in flight per connection over h2 \(default 1: one connection per user, as over HTTP\/1\.1\)/);
    expect(show.stdout).not.toContain('protocol: over-https');
    const shown = JSON.parse(cli(['show', String(json.runId), '--json', '--db', db]).stdout) as { servers: JsonServer[] };
    expect(shown.servers.map((s) => s.protocol)).toEqual(['h2', 'h1-tls']);
    expect(shown.servers.map((s) => s.streams)).toEqual([2, 1]);
  });

  it('compare of plain HTTP/1.1 against h2 over TLS: one line naming both, the handshakes B paid and how many at start-up, then the means without client queue', () => {
    const db = join(dir, 'compare.db');
    const scenario = (protocol?: string) => ({
      name: 'h1-vs-h2',
      servers: [{ label: 'api', architecture: 'single', ...(protocol && { options: { protocol } }) }],
      phases: [{ name: 'load', executor: 'closed', users: 4, count: 40, requests: [{ path: '/fib?n=12' }] }],
    });
    const ids = [undefined, 'h2'].map((protocol, i) => {
      const file = join(dir, `h1-vs-h2-${i}.json`);
      writeFileSync(file, JSON.stringify(scenario(protocol)));
      const out = cli(['run', file, '--json', '--db', db]);
      expect(out.status, out.stderr).toBe(0);
      return (JSON.parse(out.stdout) as { runId: number }).runId;
    });
    const out = cli(['compare', ...ids.map(String), '--db', db]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^ {2}B spoke h2 over TLS to "api", A plain HTTP\/1\.1: B's times include [1-4] TLS handshakes? \(mean [\d.]+ ms\), [0-4] in its first 0\.5 s, where requests waited for their connection \(client queue\)$/m);
    // the compare HTML report says it too (its differences are the same lines)
    const html = join(dir, 'compare.html');
    const exported = cli(['compare', ...ids.map(String), '--html', html, '--db', db]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/B spoke h2 over TLS to &#34;api&#34;, A plain HTTP\/1\.1: B&#39;s times include \d TLS handshakes? \(mean [\d.]+ ms\)/);
    expect(out.stdout).toMatch(/^ {2}"api" without the client queue \(mean from sent to done, the handshake waits left out\): A [\d.]+ ms, B [\d.]+ ms \(x[\d.]+\); mean total with it: A [\d.]+ ms, B [\d.]+ ms \(x[\d.]+\)$/m);
  });
});
