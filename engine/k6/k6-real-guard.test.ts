import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../test-support/temp-engine.js';
import { exportK6 } from './export-k6.js';
import { cidrsOutside, OUTSIDE_LOOPBACK } from './k6-block-list.js';
import { K6_PINNED, k6Status } from './k6-binary.js';
import { skipUnless } from '../test-support/skip.js';

// Hostile input and redirects against a real k6 (skipped with the reason where none is installed).
// Every address here is on loopback: the "elsewhere" a redirect points to is a second server on
// 127.0.0.2, which must never be reached, and the block list is shown to hold by a narrower allowed
// range (127.0.0.1 only) from the same function, so nothing is ever sent off this machine.
const k6 = k6Status();

const temp = useTempEngine('k6-guard', 'all');

/** A server on a loopback address that counts what it is asked. */
async function listen(host: string, answer: (path: string) => { status: number; headers?: Record<string, string> }): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const a = answer(req.url ?? '');
    res.writeHead(a.status, { 'content-length': '0', ...a.headers });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, paths, server };
}
/** k6 run, without blocking this process (its servers must answer meanwhile). */
function k6Run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(k6.path!, args, { encoding: 'utf8', timeout: 60_000 }, (err, _stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr }));
  });
}
const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

function inspect(script: string): { status: number | null; stderr: string; options: Record<string, unknown> | null } {
  const file = join(temp.dir, `inspect-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(file, script);
  const out = spawnSync(k6.path!, ['inspect', file], { encoding: 'utf8', timeout: 60_000 });
  let options: Record<string, unknown> | null = null;
  try {
    options = JSON.parse(out.stdout) as Record<string, unknown>;
  } catch {
    options = null;
  }
  return { status: out.status, stderr: out.stderr, options };
}

describe(`k6 ${k6.version ?? K6_PINNED} and hostile scenarios`, skipUnless(k6.available, k6.hint), () => {
  it('k6 inspect of a script from a label with a newline and code sees the label as data only (the code would have thrown)', () => {
    const label = 'single\nthrow new Error("injected by a label");\n//';
    const file = join(temp.dir, 'hostile-label.json');
    writeFileSync(file, JSON.stringify({
      name: 'hostile-label',
      servers: [{ architecture: 'single', label }],
      phases: [{ name: 'p\u2028throw 2; */ </script>', executor: 'sequential', count: 1, requests: [{ path: '/', headers: { 'x-a': '`${1}`' } }] }],
      thresholds: [{ check: 'durationMs < 9' }],
    }));
    const got = inspect(exportK6(file));
    expect(got.stderr).toBe('');
    expect(got.status).toBe(0);
    const scenarios = got.options!.scenarios as Record<string, { tags: Record<string, string> }>;
    expect(Object.values(scenarios).map((s) => [s.tags.server, s.tags.phase])).toEqual([[label, 'p\u2028throw 2; */ </script>']]);
  });

  it('accepts the generated block list and maxRedirects: 0 (every CIDR of both families)', () => {
    const got = inspect(exportK6('seed-002-sequential', { quick: true }));
    expect(got.stderr).toBe('');
    expect(got.options).toMatchObject({ maxRedirects: 0, blacklistIPs: OUTSIDE_LOOPBACK });
  });

  it('refuses to connect to an address outside the allowed range, from the same block list function (all on loopback: 127.0.0.2 blocked, 127.0.0.1 allowed)', async () => {
    const allowed = await listen('127.0.0.1', () => ({ status: 200 }));
    const outside = await listen('127.0.0.2', () => ({ status: 200 }));
    try {
      const script = join(temp.dir, 'blocked.js');
      writeFileSync(script, [
        "import http from 'k6/http';",
        `export const options = { vus: 1, iterations: 1, maxRedirects: 0, blacklistIPs: ${JSON.stringify(cidrsOutside(['127.0.0.1/32', '::1/128']))} };`,
        'export default function () {',
        `  const a = http.get(${JSON.stringify(`${allowed.url}/a`)});`,
        `  const b = http.get(${JSON.stringify(`${outside.url}/b`)});`,
        '  console.log(JSON.stringify({ a: a.status, b: b.status, bError: b.error }));',
        '}',
      ].join('\n'));
      const run = await k6Run(['run', '--quiet', '--no-color', '--no-usage-report', '--summary-mode=disabled', '--log-format=raw', script]);
      expect(run.code, run.stderr).toBe(0);
      const line = run.stderr.split('\n').find((l) => l.startsWith('{'));
      const seen = JSON.parse(line ?? '{}') as { a: number; b: number; bError: string };
      expect(seen.a).toBe(200);
      expect(seen.b).toBe(0);
      expect(seen.bError).toMatch(/blacklist|block/i);
      expect(allowed.paths).toEqual(['/a']);
      expect(outside.paths).toEqual([]);
    } finally {
      await Promise.all([close(allowed.server), close(outside.server)]);
    }
  });

  it('run --engine k6 records a 302 as it came and never follows it (the server it points to gets nothing)', async () => {
    const elsewhere = await listen('127.0.0.2', () => ({ status: 200 }));
    const redirecting = await listen('127.0.0.1', (path) => (path === '/ready' ? { status: 200 } : { status: 302, headers: { location: `${elsewhere.url}/landed` } }));
    try {
      const scenario = JSON.stringify({
        name: 'k6-redirect',
        servers: [{ architecture: 'external', url: redirecting.url, readiness: { url: `${redirecting.url}/ready` } }],
        phases: [{ name: 'go', executor: 'sequential', count: 5, requests: [{ path: '/go' }] }],
      });
      const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text: scenario }, quick: false, set: {}, engine: 'k6' });
      await temp.engine.waitForRun(runId);
      const run = await temp.engine.handlers['runs:get']({ runId });
      expect(run.status, run.reason ?? '').toBe('completed');
      expect(run.engine).toBe('k6');
      expect(elsewhere.paths).toEqual([]);
      expect(redirecting.paths.filter((p) => p === '/go')).toHaveLength(5);
      const target = run.targets[0]!;
      expect(target.phases[0]!.count).toBe(5);
      const { points } = await temp.engine.handlers['runs:requests']({ runId, targetId: target.id, limit: 100 });
      // as the native driver counts it: a 3xx without an expected status is an answer, not an error
      expect(points.map((p) => [p.status, p.error])).toEqual(Array(5).fill([302, null]));
    } finally {
      await Promise.all([close(elsewhere.server), close(redirecting.server)]);
    }
  });
});
