import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';

// `serve` and `ui` stopped with Ctrl-C the moment they print their URL (issue 36: the README tour
// test does exactly that): each stops cleanly (serve exits 0, ui 130) rather than dying of the
// signal. ui listened only after printing, so a quick Ctrl-C met the signal's default action.

const BIN = rootPath('bin/loadscope.js');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-stop-at-url-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the verb and sends one SIGINT in the same callback that sees its URL. */
function interruptAtUrl(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, LOADSCOPE_DB: join(dir, 'runs.db') }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let sent = false;
  const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!sent && /http:\/\/127\.0\.0\.1:\d+/.test(stdout)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.resume();
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout });
    }),
  );
}

describe('Ctrl-C the moment the URL is printed', () => {
  // a few times each: ui's window was the few statements after the URL was written
  it.each([1, 2, 3])('serve (try %i): a clean stop, exit 0, not death by SIGINT', async () => {
    const out = await interruptAtUrl(['serve', 'single']);
    expect(out.stdout).toContain('single listening on http://127.0.0.1:');
    expect({ code: out.code, signal: out.signal }).toEqual({ code: 0, signal: null });
  });

  it.each([1, 2, 3])('ui (try %i): a clean stop, exit 130, not death by SIGINT', async () => {
    const out = await interruptAtUrl(['ui']);
    expect(out.stdout).toContain('Loadscope workbench: http://127.0.0.1:');
    expect({ code: out.code, signal: out.signal }).toEqual({ code: 130, signal: null });
  });
});
