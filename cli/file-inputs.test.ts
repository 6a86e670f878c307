import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/engine.js';
import { PEM_KEY_TEXT, quotedPieces, SHADOW_TEXT, writeSecretFiles } from '../engine/scenario/test-support/secret-files.js';
import { startBrowserHost } from './host/browser-host.js';
import { runCli } from './test-support/cli-process.js';

// Files a command reads, as a person or a shared scenario names them: a HAR that is /dev/zero or a
// FIFO is refused at once in one line (it was read without end: 620 MB, then an internal error; a
// FIFO's open waited for a writer), a secret named as a data file reaches neither `validate` nor the
// browser host's 422, and `run` of a scenario reading a file outside its folder lists the file and
// runs nothing without --allow-files. The real CLI and a real browser host on 127.0.0.1; a command
// that would read forever is ended by its deadline and fails the test.

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-file-inputs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI run in this test's folder, killed at its deadline (status null): a command reading without end fails. */
const cli = (args: string[]) => runCli(args, { cwd: dir });

const dataScenario = (file: string) => ({
  name: 'secrets',
  servers: [{ architecture: 'single' }],
  data: [{ name: 'users', file }],
  phases: [{ executor: 'burst', count: 1, data: 'users', requests: [{ path: '/u/{{data.user}}' }] }],
});

describe('import-har of a file that is not a regular file', () => {
  it('/dev/zero: exit 2 at once with one line, nothing read', async () => {
    const r = await cli(['import-har', '/dev/zero']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe('loadscope: "/dev/zero" is a device, not a regular file (LS_ERR_BAD_REQUEST)');
  });

  it('a FIFO no one writes to: exit 2 at once with one line, the open does not wait for a writer', async () => {
    const fifo = join(dir, 'capture.har');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await cli(['import-har', fifo]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(`loadscope: ${JSON.stringify(fifo)} is a named pipe (FIFO), not a regular file (LS_ERR_BAD_REQUEST)`);
  });

  it('a folder: exit 2 with one line', async () => {
    const r = await cli(['import-har', dir]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(`loadscope: ${JSON.stringify(dir)} is a directory, not a regular file (LS_ERR_BAD_REQUEST)`);
  });
});

describe('a secret named as a data file', () => {
  it('loadscope validate (text and --json), the shadow file beside the scenario: exit 2, no piece of it', async () => {
    writeSecretFiles(dir);
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify(dataScenario('shadow')));
    for (const json of [false, true]) {
      const r = await cli(['validate', file, ...(json ? ['--json'] : [])]);
      expect(r.status, r.stderr).toBe(2);
      const out = r.stdout + r.stderr;
      expect(quotedPieces(SHADOW_TEXT, out)).toEqual([]);
      expect(out).toContain("no column 'user' in data 'users' (its file has 1 column)");
    }
  });

  it("the browser host: a UI run naming the key file is refused (403) listing its path, and with consent its 422 quotes none of it", async () => {
    const { key } = writeSecretFiles(dir);
    const engine = createEngine({ dbPath: join(dir, 'runs.db') });
    const host = await startBrowserHost({ engine, port: 0, staticDir: dir });
    const start = (allowFiles: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers = { host: `127.0.0.1:${host.port}`, 'content-type': 'application/json', 'x-loadscope-token': host.token };
        const req = request({ host: '127.0.0.1', port: host.port, method: 'POST', path: '/api/runs:start', headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ scenario: { text: JSON.stringify(dataScenario(key)) }, ...(allowFiles && { allowFiles }) }));
      });
    try {
      const asked = await start(false);
      expect(asked.status, asked.body).toBe(403);
      expect(JSON.parse(asked.body)).toEqual({ code: 'LS_ERR_NEEDS_CONSENT', message: `this scenario reads files outside its own folder: ${JSON.stringify(realpathSync(key))}; confirm them in the UI or pass --allow-files` });
      const refused = await start(true);
      expect(refused.status, refused.body).toBe(422);
      expect(quotedPieces(PEM_KEY_TEXT, refused.body)).toEqual([]);
      expect(refused.body).toContain("no column 'user' in data 'users' (its file has 1 column)");
    } finally {
      await host.close();
      await engine.close();
    }
  });
});

describe('loadscope run of a scenario reading a file outside its folder', () => {
  it('../outside.csv: exit 2 naming the file and --allow-files, no run stored', async () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(dir, 'outside.csv'), 'user\nroot\n');
    const file = join(project, 'reads-outside.json');
    writeFileSync(file, JSON.stringify(dataScenario('../outside.csv')));
    const db = join(dir, 'runs.db');
    const r = await cli(['run', file, '--db', db]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`this scenario reads files outside its own folder: ${JSON.stringify(join(realpathSync(dir), 'outside.csv'))}; confirm them in the UI or pass --allow-files`);
    const list = await cli(['list', '--json', '--db', db]);
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });
});
