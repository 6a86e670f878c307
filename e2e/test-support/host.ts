import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { rootPath } from '../../engine/paths.js';

// The real browser host as a user starts it (`loadscope ui --port 0`), on a temporary database, as
// a child process: the e2e tests see exactly what a person would, and a crash in the host cannot take
// the test runner with it.

export interface RunningHost {
  /** the URL the host printed, token included */
  url: string;
  dataDir: string;
  /** what the host wrote to stderr so far (for failure messages) */
  stderr(): string;
  /** SIGTERM (the host stops its runs and servers), SIGKILL past the deadline; removes the data folder. */
  stop(): Promise<void>;
}

const URL_LINE = /^Loadscope workbench: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * `dbPath`: a database that already holds runs (its owner removes it); a fresh one in the data folder otherwise.
 * `env`: more of the host's environment (a recording test names its Chromium and its page script).
 */
export async function startHost(startTimeoutMs = 30_000, dbPath?: string, env: Record<string, string> = {}): Promise<RunningHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loadscope-e2e-'));
  const db = dbPath ?? join(dataDir, 'runs.db');
  const child = spawn(process.execPath, [rootPath('bin/loadscope.js'), 'ui', '--port', '0', '--db', db], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, LOADSCOPE_DB: db },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`loadscope ui printed no URL within ${startTimeoutMs} ms\n${stderr}`)), startTimeoutMs);
      const lines = createInterface({ input: child.stdout ?? process.stdin });
      lines.on('line', (line) => {
        const match = URL_LINE.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`loadscope ui exited (${code}) before printing its URL\n${stderr}`));
      });
    });
    return { url, dataDir, stderr: () => stderr, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
