import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// The TLS handshake as its own figure through the real CLI (issue 28): a bundled server over https
// and one over plain http in one scenario; with keepAlive false every request opens a connection, so
// `run --json`, `show` (text and --json) and the HTML report give one handshake per request; with
// keep-alive no more than the users; plain http none. Build first: npx tsc -p tsconfig.node.json &&
// node scripts/build-cli.mjs.

const BIN = rootPath('bin/loadscope.js');
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-connections-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Stats {
  count: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
}
type Connections = { opened: number; connect: Stats; handshake: Stats } | null;
interface JsonServer {
  label: string;
  phases: Array<{ name: string; count: number; connections: Connections }>;
}

describe('new connections and their TLS handshake per phase', () => {
  it('run --json, show and the HTML report give them over https only', () => {
    const file = join(dir, 'handshakes.json');
    const db = join(dir, 'runs.db');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'handshakes',
        servers: [
          { label: 'over-https', architecture: 'single', options: { protocol: 'https' } },
          { label: 'plain', architecture: 'single' },
        ],
        phases: [
          { name: 'fresh', executor: 'closed', users: 2, count: 20, keepAlive: false, requests: [{ path: '/fib?n=5' }] },
          { name: 'kept', executor: 'closed', users: 2, count: 20, requests: [{ path: '/fib?n=5' }] },
        ],
      }),
    );
    const out = cli(['run', file, '--json', '--db', db]);
    expect(out.status, out.stderr).toBe(0);
    const json = JSON.parse(out.stdout) as { runId: number; servers: JsonServer[] };
    const [https, plain] = json.servers;
    const [fresh, kept] = https!.phases;
    expect(fresh!.count).toBe(20);
    expect(fresh!.connections!.opened).toBe(20);
    expect(fresh!.connections!.handshake.count).toBe(20);
    expect(fresh!.connections!.handshake.mean).toBeGreaterThan(0);
    expect(fresh!.connections!.handshake.max).toBeGreaterThanOrEqual(fresh!.connections!.handshake.p99);
    expect(kept!.connections!.opened).toBeGreaterThanOrEqual(1);
    expect(kept!.connections!.opened).toBeLessThanOrEqual(2);
    expect(plain!.phases.map((p) => p.connections)).toEqual([null, null]);

    const show = cli(['show', String(json.runId), '--db', db]);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain('over-https / fresh: TLS: 20 new connections · handshake mean ');
    expect(show.stdout).not.toMatch(/plain \/ \w+: TLS/);
    expect(show.stdout).toContain('TLS: new connections the phase opened over TLS');
    const shown = JSON.parse(cli(['show', String(json.runId), '--json', '--db', db]).stdout) as { servers: JsonServer[] };
    expect(shown.servers[0]!.phases[0]!.connections).toEqual(fresh!.connections);

    const html = join(dir, 'report.html');
    const exported = cli(['export', String(json.runId), '--html', html, '--db', db]);
    expect(exported.status, exported.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    const lines = [...page.matchAll(/<p class="muted connections" data-opened="(\d+)"[^>]*>([^<]*)<\/p>/g)];
    // the two https phases, none of the plain server's
    expect(lines.map((m) => m[1])).toEqual(['20', String(kept!.connections!.opened)]);
    expect(lines[0]![2]).toContain('TLS: 20 new connections · handshake mean ');
  });
});
