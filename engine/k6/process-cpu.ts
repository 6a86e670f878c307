import { readFile } from 'node:fs/promises';

// A k6 process's CPU as `--instances` shows it per instance: utime + stime from /proc/<pid>/stat,
// read every second while it runs (the last reading before it exits stands for its whole life).
// Linux only; elsewhere, or when /proc cannot be read, the CPU is not known (null), never guessed.
// Ticks are taken as 100 a second (USER_HZ, which Linux fixes at 100 for /proc whatever the kernel's HZ).

const TICKS_PER_SECOND = 100;
const EVERY_MS = 1000;

/** The CPU seconds /proc says `pid` used, or null. */
async function cpuSeconds(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count fields after its last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** Watches one process from now; `stop()` gives its mean CPU in % of one core over the time watched, or null. */
export function watchCpu(pid: number | undefined): { stop(): number | null } {
  const startedMs = Date.now();
  let last: { seconds: number; atMs: number } | null = null;
  const read = () => {
    if (pid === undefined) return;
    void cpuSeconds(pid).then((seconds) => {
      if (seconds !== null) last = { seconds, atMs: Date.now() };
    });
  };
  read();
  const timer = setInterval(read, EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (last === null || last.atMs <= startedMs) return null;
      return Math.round((last.seconds / ((last.atMs - startedMs) / 1000)) * 1000) / 10;
    },
  };
}
