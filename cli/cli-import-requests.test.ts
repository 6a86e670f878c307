import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundledServer } from '../contract/scenario.js';
import { k6Status } from '../engine/k6/k6-binary.js';
import { rootPath } from '../engine/paths.js';
import { startServer } from '../engine/supervisor/supervisor.js';
import type { RunJson } from './test-support/run-json.js';
import { skipUnless } from '../engine/test-support/skip.js';

// Issue 28's "a HAR file and a curl command each become a scenario that runs": through the real CLI,
// against a real bundled server on 127.0.0.1, stored in a real SQLite file. Build first
// (npx tsc -p tsconfig.node.json; node scripts/build-cli.mjs).

const BIN = rootPath('bin/loadscope.js');
const k6 = k6Status();
const FIXTURE = rootPath('engine/import-requests/fixtures/shop.har');

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-import-'));
  server = await startServer(BundledServer.parse({ architecture: 'single' }));
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
const failed = (errors: Record<string, number>) => Object.values(errors).reduce((n, e) => n + e, 0);

function runJson(file: string, ...more: string[]): RunJson {
  const out = cli(['run', file, '--json', '--db', join(dir, 'runs.db'), ...more]);
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as RunJson;
}

describe('import-har and import-curl through the CLI', () => {
  it("a browser's HAR becomes a scenario that validates and runs: every endpoint answered", () => {
    const port = new URL(server.url).port;
    const har = join(dir, 'shop.har');
    writeFileSync(har, readFileSync(FIXTURE, 'utf8').replaceAll('__PORT__', port));
    const out = cli(['import-har', har, '--out', 'shop.json']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toContain('note: left out 2 static asset request(s)');
    expect(out.stderr).toContain('note: left out secret headers (authorization, cookie, x-csrf-token); --keep-secrets keeps them');
    expect(JSON.parse(readFileSync(join(dir, 'shop.json'), 'utf8'))).toMatchObject({ servers: [{ architecture: 'external', url: server.url }] });
    // written once: no file is replaced without --force
    expect(cli(['import-har', har, '--out', 'shop.json']).stderr).toContain('shop.json already exists; pass --force to replace it');
    expect(cli(['validate', 'shop.json']).status).toBe(0);

    const phase = runJson('shop.json').servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => e.name).sort()).toEqual(['GET /fib?n=5', 'POST /api/echo', 'POST /api/login']);
    expect(phase.count).toBe(4);
    expect(failed(phase.errors)).toBe(0);
  });

  // an import is an ordinary scenario: k6 sends it too, its literal {{ as typed (the echo answers it back)
  it("the HAR's scenario runs on k6 as well, every endpoint answered", skipUnless(k6.available, k6.hint), () => {
    const run = runJson('shop.json', '--engine', 'k6');
    expect(run.status).toBe('completed');
    const phase = run.servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => e.name).sort()).toEqual(['GET /fib?n=5', 'POST /api/echo', 'POST /api/login']);
    expect(phase.count).toBe(4);
    expect(failed(phase.errors)).toBe(0);
  });

  it('a curl command copied from developer tools becomes a scenario that runs', () => {
    const command = `curl '${server.url}/api/login' -H 'content-type: application/json' -H 'Cookie: sid=1' --data-raw $'{"user":"ada","password":"secret"}' --compressed -k`;
    const out = cli(['import-curl', command, '--out', 'login.json']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toContain('note: the command turned TLS verification off (-k/--insecure)');
    const scenario = JSON.parse(readFileSync(join(dir, 'login.json'), 'utf8')) as { description: string; phases: { requests: { headers: Record<string, string> }[] }[] };
    expect(scenario.description).toContain('-k/--insecure');
    expect(scenario.phases[0]!.requests[0]!.headers).not.toHaveProperty('Cookie');

    const phase = runJson('login.json').servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => e.name)).toEqual(['POST /api/login']);
    expect(phase.count).toBe(10);
    expect(failed(phase.errors)).toBe(0);
  });

  it('a malformed HAR is exit 2 with one line naming the JSON path; stdout gets nothing', () => {
    writeFileSync(join(dir, 'bad.har'), JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: 7, headers: [] } }] } }));
    const out = cli(['import-har', 'bad.har']);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toContain('"bad.har" is not a HAR file: log.entries[0].request.url');
  });
});
