import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundledServer } from '../contract/scenario.js';
import { k6Status } from '../engine/k6/k6-binary.js';
import { rootPath } from '../engine/paths.js';
import { startServer } from '../engine/supervisor/supervisor.js';
import type { RunJson } from './test-support/run-json.js';
import { skipUnless } from '../engine/test-support/skip.js';

// Issues 28 and 39: "a HAR file and a curl command each become a journey that runs": through the real CLI,
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
  it("a browser's HAR becomes a journey that validates and runs: every step answered, the login's credentials read from the 0600 file beside it", () => {
    const port = new URL(server.url).port;
    const har = join(dir, 'shop.har');
    writeFileSync(har, readFileSync(FIXTURE, 'utf8').replaceAll('__PORT__', port));
    const out = cli(['import-har', har, '--out', 'shop.json']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toContain('note: left out 2 static asset request(s)');
    expect(out.stderr).toContain('note: moved 5 credential(s) (cookie_session, x_csrf_token, user, password, token) out of the scenario to shop.credentials.csv');
    expect(out.stderr).toContain('wrote shop.credentials.csv (mode 0600)');
    expect(statSync(join(dir, 'shop.credentials.csv')).mode & 0o777).toBe(0o600);
    const text = readFileSync(join(dir, 'shop.json'), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ servers: [{ architecture: 'external', url: server.url }], data: [{ name: 'credentials', file: 'shop.credentials.csv' }] });
    expect(text).not.toMatch(/"secret"|Bearer abc|session=abc/);
    // written once: no file is replaced without --force, and neither is written then
    expect(cli(['import-har', har, '--out', 'shop.json']).stderr).toContain('shop.json already exists; pass --force to replace it');
    expect(cli(['validate', 'shop.json']).status).toBe(0);

    const phase = runJson('shop.json').servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => e.name)).toEqual(['GET /fib', 'POST /api/login', 'POST /api/echo', 'GET /fib #2']);
    expect(phase.count).toBe(4 * 3);
    expect(failed(phase.errors)).toBe(0);
  });

  // k6 carries a journey (issue 40): the same steps, the credentials from the same data file
  it("the HAR's journey on k6: runs as natively, every step answered", skipUnless(k6.available, k6.hint), () => {
    const phase = runJson('shop.json', '--engine', 'k6').servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => e.name)).toEqual(['GET /fib', 'POST /api/login', 'POST /api/echo', 'GET /fib #2']);
    expect(phase.count).toBe(4 * 3);
    expect(failed(phase.errors)).toBe(0);
  });

  it('a curl command copied from developer tools becomes a journey aimed at its own server that runs', () => {
    const command = `curl '${server.url}/api/login' -H 'content-type: application/json' -H 'Cookie: sid=1' --data-raw $'{"user":"ada","password":"secret"}' --compressed -k`;
    const out = cli(['import-curl', command, '--out', 'login.json']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toContain('note: the command turned TLS verification off (-k/--insecure)');
    const scenario = JSON.parse(readFileSync(join(dir, 'login.json'), 'utf8')) as { description: string; servers: { url: string }[]; phases: { requests: { headers: Record<string, string> }[] }[] };
    expect(scenario.description).toContain('-k/--insecure');
    expect(scenario.servers[0]!.url).toBe(server.url);
    expect(scenario.phases[0]!.requests[0]!.headers.Cookie).toBe('sid={{data.cookie_sid}}');

    const phase = runJson('login.json').servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => e.name)).toEqual(['POST /api/login']);
    expect(phase.count).toBe(3);
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
