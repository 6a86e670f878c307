import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rootPath } from '../../engine/paths.js';

// `loadscope record` as a person starts it, a child process with its stdin a pipe (Enter is a line
// written to it), its stderr kept as it comes so a test can wait for what it says.

export const LOGIN_SCRIPT = rootPath('dist/e2e/test-support/record-login-script.js');

export interface RecordProcess {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  stdout(): string;
  /** resolves once stderr matches (rejects when the process ends first) */
  said(pattern: RegExp): Promise<void>;
  exit: Promise<number | null>;
}

export function startRecord(args: readonly string[], env: Record<string, string>): RecordProcess {
  const child = spawn(process.execPath, [rootPath('bin/loadscope.js'), 'record', ...args], { env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', ...env } });
  let stderr = '';
  let stdout = '';
  const waiting: { pattern: RegExp; resolve: () => void; reject: (err: Error) => void }[] = [];
  const check = () => {
    for (const w of [...waiting]) {
      if (!w.pattern.test(stderr)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    check();
  });
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      for (const w of waiting.splice(0)) w.reject(new Error(`loadscope record exited (${code}) before saying ${w.pattern}\n${stderr}`));
      resolve(code);
    }),
  );
  return {
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    exit,
    said: (pattern) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ pattern, resolve, reject });
        check();
        if (child.exitCode !== null && waiting.some((w) => w.pattern === pattern)) reject(new Error(`loadscope record exited (${child.exitCode}) before saying ${pattern}\n${stderr}`));
      }),
  };
}
