// The cost of a whole process as the OS accounts it: wall time from spawn to exit, and CPU time
// (user + system, every thread and every child it waited for) read from a wrapping shell's
// /proc/<pid>/stat cutime + cstime once the command has exited. Start-up is included, which is the
// point: a user pays for it. Linux only (elsewhere cpuS is null). With peakMemory, also the process's
// peak resident set (its VmHWM, as the kernel hands it to its parent at exit: ru_maxrss) through
// GNU time (`/usr/bin/time`, Debian's `time` package); without it peakMB is null.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

const TICKS_PER_S = 100; // USER_HZ, the unit of /proc/<pid>/stat times on every Linux
const haveProc = existsSync('/proc/self/stat');
const GNU_TIME = '/usr/bin/time';
export const canMeasurePeakMemory = existsSync(GNU_TIME);

/** Runs `command args` (through `taskset -c <core>` when pin is a core number); resolves when it exits. */
export function measureProcess(command, args, { cwd, env, pin, stdout = 'ignore', peakMemory = false } = {}) {
  // the shell runs the command, waits for it, then prints its own children's CPU to fd 3
  const script = '"$@"; s=$?; cat /proc/$$/stat >&3; exit $s';
  // GNU time waits for the command and writes its maximum resident set size (KB) to a file of its own
  const timeDir = peakMemory && canMeasurePeakMemory ? mkdtempSync(join(os.tmpdir(), 'loadscope-peak-')) : null;
  const timed = timeDir === null ? [command, ...args] : [GNU_TIME, '-f', '%M', '-o', join(timeDir, 'maxrss'), command, ...args];
  const argv = ['-c', script, 'sh', ...timed];
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
      let peakMB = null;
      if (timeDir !== null) {
        // the last line: GNU time puts "Command exited with non-zero status" before it when it did
        const kb = Number(readFileSync(join(timeDir, 'maxrss'), { encoding: 'utf8', flag: 'a+' }).trim().split('\n').at(-1));
        rmSync(timeDir, { recursive: true, force: true });
        peakMB = Number.isFinite(kb) && kb > 0 ? kb / 1024 : null;
      }
      resolve({ code, wallS, cpuS, peakMB, stdout: out, stderr: err });
    });
  });
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
