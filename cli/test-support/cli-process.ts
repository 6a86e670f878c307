import { spawn } from 'node:child_process';
import { rootPath } from '../../engine/paths.js';

// The real CLI as a child process, for the tests that drive it end to end. Asynchronous, so a test's
// own servers (living in the test's event loop) keep answering while it runs; ended at a deadline so a
// command that never finishes fails its test with status null instead of hanging it.

export interface CliResult {
  /** the exit status; null when killed at the deadline */
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** well below the unit tests' 60 s limit, so a stuck command fails its test on the status, not on vitest's timeout */
  deadlineMs?: number;
}

/** what is kept of each stream: its end (where a runaway command's last line is); an answer longer than this fails to parse */
const MAX_OUTPUT_CHARS = 1024 * 1024;

/** bin/loadscope.js with `args`, to its end or to the deadline. */
export function runCli(args: string[], { cwd, deadlineMs = 30_000 }: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [rootPath('bin/loadscope.js'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout = (stdout + c.toString()).slice(-MAX_OUTPUT_CHARS)));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-MAX_OUTPUT_CHARS)));
    const deadline = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    child.on('close', (status) => {
      clearTimeout(deadline);
      resolve({ status, stdout, stderr });
    });
  });
}
