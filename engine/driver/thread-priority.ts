import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

// The driver's thread takes its read timestamps when it gets the core. Sharing one (a pinned
// generator, a busy machine) it waits behind the other threads of its own process, the main
// thread's storing and V8's compiler and GC threads, for as long as the kernel lets them run
// (bench/tail.mjs measures who ran while it waited). So for the driver's run every other thread of
// the process gets the lowest priority (nice 19), and its own afterwards. Raising a nice value needs
// no privilege, lowering it back does (CAP_SYS_NICE or RLIMIT_NICE): where the old values could not
// be restored nothing is changed, since threads and child processes started later (the next
// server's process) would inherit 19. Linux only; LOADSCOPE_DRIVER_PRIORITY=off leaves it out (to
// measure with and without it in one run).

/** The calling thread's kernel thread id (Linux: /proc/thread-self -> "<pid>/task/<tid>"), else null. */
export function ownThreadId(): number | null {
  try {
    const link = readlinkSync('/proc/thread-self');
    const tid = Number(link.slice(link.lastIndexOf('/') + 1));
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

const CAP_SYS_NICE = 23;

/**
 * Whether this process may lower a nice value back down to `nice`: root's or CAP_SYS_NICE's
 * privilege, or an RLIMIT_NICE soft limit of at least 20 - nice. `status` and `limits` are the
 * texts of /proc/self/status and /proc/self/limits.
 */
export function mayRestore(nice: number, status: string, limits: string): boolean {
  const capEff = /^CapEff:\s*([0-9a-f]+)$/im.exec(status)?.[1];
  if (capEff !== undefined && (BigInt(`0x${capEff}`) >> BigInt(CAP_SYS_NICE)) & 1n) return true;
  const soft = /^Max nice priority\s+(\S+)/im.exec(limits)?.[1];
  if (soft === undefined) return false;
  return soft === 'unlimited' || Number(soft) >= 20 - nice;
}

/** Threads whose nice value was raised, to be put back. */
export interface ThreadPriorities {
  restore(): void;
}

/** Raises the nice value of every thread of this process but `driverTid`; null where that is not done. */
export function yieldToDriver(driverTid: number): ThreadPriorities | null {
  if (process.platform !== 'linux' || process.env.LOADSCOPE_DRIVER_PRIORITY === 'off') return null;
  let tids: number[];
  let status: string;
  let limits: string;
  try {
    tids = readdirSync('/proc/self/task').map(Number);
    status = readFileSync('/proc/self/status', 'utf8');
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  if (!tids.includes(driverTid)) return null;
  const saved = new Map<number, number>();
  for (const tid of tids) {
    if (tid === driverTid) continue;
    try {
      saved.set(tid, getPriority(tid));
    } catch {
      // the thread ended meanwhile
    }
  }
  if (![...saved.values()].every((nice) => mayRestore(nice, status, limits))) return null;
  for (const tid of saved.keys()) {
    try {
      setPriority(tid, constants.priority.PRIORITY_LOW);
    } catch {
      saved.delete(tid);
    }
  }
  const mainNice = saved.get(process.pid) ?? 0;
  return {
    restore() {
      // threads started meanwhile inherited their starter's 19: they get the main thread's value
      let now: number[] = [];
      try {
        now = readdirSync('/proc/self/task').map(Number);
      } catch {
        // not readable any more: restore the ones known
      }
      for (const tid of new Set([...saved.keys(), ...now])) {
        if (tid === driverTid) continue;
        try {
          if (getPriority(tid) === constants.priority.PRIORITY_LOW) setPriority(tid, saved.get(tid) ?? mainNice);
        } catch {
          // ended
        }
      }
    },
  };
}
