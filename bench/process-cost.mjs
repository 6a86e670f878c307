// The cost of a whole process as the OS accounts it: wall time from spawn to exit, and CPU time
// (user + system, every thread and every child it waited for) read from a wrapping shell's
// /proc/<pid>/stat cutime + cstime once the command has exited. Start-up is included, which is the
// point: a user pays for it. Linux only (elsewhere cpuS is null).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ, the unit of /proc/<pid>/stat times on every Linux
const haveProc = existsSync('/proc/self/stat');

/** Runs `command args` (through `taskset -c <core>` when pin is a core number); resolves when it exits. */
export function measureProcess(command, args, { cwd, env, pin, stdout = 'ignore' } = {}) {
  // the shell runs the command, waits for it, then prints its own children's CPU to fd 3
  const script = '"$@"; s=$?; cat /proc/$$/stat >&3; exit $s';
  const argv = ['-c', script, 'sh', command, ...args];
  const [file, fileArgs] = pin === undefined ? ['sh', argv] : ['taskset', ['-c', String(pin), 'sh', ...argv]];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, fileArgs, { cwd, env, stdio: ['ignore', stdout, 'pipe', 'pipe'] });
    let stat = '';
    let out = '';
    let err = '';
    child.stdio[3].on('data', (d) => (stat += d));
    child.stdout?.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallS = Number(process.hrtime.bigint() - started) / 1e9;
      // fields after the ')' of the command name: state is [0]; cutime and cstime are fields 16 and 17 (1-based), [13] and [14] here
      const fields = stat.slice(stat.lastIndexOf(')') + 2).trim().split(/\s+/);
      const cpuS = haveProc && fields.length > 14 ? (Number(fields[13]) + Number(fields[14])) / TICKS_PER_S : null;
      resolve({ code, wallS, cpuS, stdout: out, stderr: err });
    });
  });
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
