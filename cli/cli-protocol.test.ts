import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// TLS and h2 through the real CLI (issue 28): bundled servers over h2 and https in one scenario,
// `run --json` and `show` (text and --json) state what each server run's load spoke.
// Build first: npx tsc -p tsconfig.node.json && node scripts/build-cli.mjs.

const BIN = rootPath('bin/loadscope.js');
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-protocol-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface JsonServer {
  label: string;
  protocol: string | null;
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
    expect(show.stdout).toContain('protocol: over-h2: h2');
    expect(show.stdout).not.toContain('protocol: over-https');
    const shown = JSON.parse(cli(['show', String(json.runId), '--json', '--db', db]).stdout) as { servers: JsonServer[] };
    expect(shown.servers.map((s) => s.protocol)).toEqual(['h2', 'h1-tls']);
  });
});
