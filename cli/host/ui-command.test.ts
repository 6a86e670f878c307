import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { rootPath } from '../../engine/paths.js';
import { connectNode } from './test-support/node-client.js';
import { skipUnless } from '../../engine/test-support/skip.js';

// `loadscope ui` as a user runs it: the compiled CLI (npm test builds first) with the real engine.

const cli = rootPath('bin/loadscope.js');
const built = existsSync(rootPath('dist/cli/main.js'));

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!child.stdout) return reject(new Error('no stdout'));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`loadscope ui exited with ${code} before printing its URL`)));
  });
}

describe('loadscope ui', skipUnless(built, 'dist/cli/main.js is not built (npm run build)'), () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('prints its URL, serves the workbench and the contract, and stops on SIGTERM', async () => {
    dir = mkdtempSync(join(tmpdir(), 'loadscope-ui-'));
    let stderr = '';
    child = spawn(process.execPath, [cli, 'ui', '--port', '0', '--db', join(dir, 'runs.db')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const line = await firstLine(child);
    const match = /^Loadscope workbench: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([\w-]+)$/.exec(line);
    expect(match, `${line}\n${stderr}`).not.toBeNull();
    const [, base, , token] = match ?? [];

    const index = await fetch(`${base}/?token=${token}`);
    const rendererBuilt = existsSync(rootPath('dist/renderer/index.html'));
    expect(index.status).toBe(rendererBuilt ? 200 : 503);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'");
    if (rendererBuilt) expect(await index.text()).toContain('<div id="root">');

    const { api, transport } = connectNode(base, token);
    const scenarios = await api.invoke('scenarios:list', {});
    expect(scenarios.length).toBeGreaterThan(0);
    await expect(api.invoke('runs:list', {})).resolves.toEqual([]);
    transport.close();
    expect((await fetch(`${base}/api/runs:list`, { method: 'POST', body: '{}' })).status).toBe(401);

    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(143); // 128 + SIGTERM, as for every verb that runs load
  });

  it('refuses a bad --port with a one-line reason', async () => {
    child = spawn(process.execPath, [cli, 'ui', '--port', 'x'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child?.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--port/);
  });
});
