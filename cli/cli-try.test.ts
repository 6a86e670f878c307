import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TryResult } from '../contract/try-once.js';
import { rootPath } from '../engine/paths.js';
import { startSilentServer } from '../engine/run/try/test-support/silent-server.js';
import { runCli } from './test-support/cli-process.js';
import { startRawTextServer, type RawTextServer } from './test-support/raw-text-server.js';

// `loadscope try` through the real CLI (issue 39): one block per step on a bundled server, --json,
// exit 0 when every step passed and 1 when one failed; bad input (no such file, an invalid
// scenario, a target that does not answer) is one line and exit 2; what the scenario and the target
// chose (names, bodies) reaches the terminal escaped, each on its own line; nothing is stored;
// Ctrl-C ends a try waiting on a hung target at once, printing what was tried.
// Build first (npx tsc -p tsconfig.node.json).

let dir: string;
let raw: RawTextServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-cli-try-'));
  raw = await startRawTextServer('before\x1b]0;pwned\x07\x1b[2Jafter\rover\nsecond line');
});
afterAll(async () => {
  await raw.close();
  rmSync(dir, { recursive: true, force: true });
});

const db = () => join(dir, 'runs.db');
function scenarioFile(name: string, scenario: object): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return file;
}

const loginFlow = (meExpect: object) => ({
  name: 'cli-try',
  servers: [{ architecture: 'single' }],
  phases: [
    {
      executor: 'closed',
      name: 'journey',
      users: 2,
      count: 10,
      flow: true,
      requests: [
        { name: 'login', method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: '{"user":"eve","password":"secret"}', extract: { var: 'token', from: 'json', path: 'token' } },
        { name: 'me', path: '/api/me', headers: { Authorization: 'Bearer {{vars.token}}' }, expect: meExpect },
      ],
    },
  ],
});

describe('loadscope try', () => {
  it('a journey that passes: a block per step with its request, response and times; exit 0; no run stored', async () => {
    const out = await runCli(['try', scenarioFile('pass', loginFlow({ status: 200 })), '--db', db()]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^✓ 1\. journey · login {2}POST http:\/\/127\.0\.0\.1:\d+\/api\/login → 200$/m);
    expect(out.stdout).toMatch(/^✓ 2\. journey · me {2}GET http:\/\/127\.0\.0\.1:\d+\/api\/me → 200$/m);
    expect(out.stdout).toContain('       Authorization: •••• (');
    expect(out.stdout).toMatch(/^ {5}time: connect [\d.]+ ms · before sending [\d.]+ ms · ttfb/m);
    expect(out.stdout).toContain('extracted: token = •••• (');
    expect(out.stdout).toContain('\n2 of 2 steps passed.\n');
    const list = await runCli(['list', '--json', '--db', db()]);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('a step that fails: --json names it and its field, exit 1', async () => {
    const out = await runCli(['try', scenarioFile('fail', loginFlow({ status: 200, bodyIncludes: '"user":"mallory"' })), '--json', '--db', db()]);
    expect(out.status, out.stderr).toBe(1);
    const result = JSON.parse(out.stdout) as TryResult;
    expect(result.passed).toBe(false);
    expect(result.steps[1]).toMatchObject({ name: 'me', failurePath: 'phases[0].requests[1].expect.bodyIncludes', error: { kind: 'body' } });
  });

  it('strings the scenario and the target chose: shown escaped, each on its own line, never acted on', async () => {
    const file = scenarioFile('odd', { name: 'odd', servers: [{ architecture: 'external', url: raw.url }], phases: [{ executor: 'burst', count: 1, requests: [{ name: 'evil\x1b]0;title\x07\nname', path: '/x' }] }] });
    const out = await runCli(['try', file, '--db', db()]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).not.toMatch(/[\x07\x1b\r]/);
    expect(out.stdout).toContain('✓ 1. phase 1 · evil\\u001b]0;title\\u0007\\u000aname  GET');
    expect(out.stdout).toContain('\n       before\\u001b]0;pwned\\u0007\\u001b[2Jafter\\u000dover\n       second line\n');
  });

  it('bad input is one line and exit 2: no such file, an invalid scenario, a target that does not answer', async () => {
    const missing = await runCli(['try', join(dir, 'nope.json'), '--db', db()]);
    const invalid = await runCli(['try', scenarioFile('invalid', { name: 'Bad Name', servers: [{ architecture: 'single' }], phases: [{ executor: 'burst', count: 0, requests: [{ path: 'x' }] }] }), '--db', db()]);
    const silent = scenarioFile('silent', { name: 'silent', servers: [{ architecture: 'external', url: 'http://127.0.0.1:9', readiness: { timeoutMs: 300 } }], phases: [{ executor: 'burst', count: 1, requests: [{ path: '/' }] }] });
    const down = await runCli(['try', silent, '--db', db()]);
    for (const out of [missing, invalid, down]) {
      expect(out.status, out.stderr).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(missing.stderr).toContain("no scenario file '");
    expect(invalid.stderr).toMatch(/is not a valid scenario: \S+: .* \(and \d+ more: loadscope validate lists them\) \(LS_ERR_SCENARIO_INVALID\)/);
    expect(down.stderr).toContain('nothing answered at http://127.0.0.1:9 within 300 ms');
  });

  it('Ctrl-C during a request to a hung target: the try ends at once with what it tried, exit 130', async () => {
    const silent = await startSilentServer();
    try {
      const file = scenarioFile('hung', { name: 'hung', servers: [{ architecture: 'external', url: silent.url, readiness: { url: `${silent.url}/ready` } }], phases: [{ executor: 'burst', count: 1, timeoutMs: 3_600_000, requests: [{ path: '/hang' }, { path: '/never' }] }] });
      const child = spawn(process.execPath, [rootPath('bin/loadscope.js'), 'try', file, '--db', db()], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      // the readiness check's connection, then the request's: it is in flight
      for (let i = 0; silent.connections < 2 && i < 1500; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(silent.connections).toBe(2);
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const status = await closed;
      clearTimeout(killer);
      expect(status).toBe(130);
      expect(stdout).toContain('FAILED (other): the try was cancelled');
      expect(stdout).toContain('2. phase 1 · GET /never: not sent: the try was cancelled');
    } finally {
      await silent.close();
    }
  });
});
