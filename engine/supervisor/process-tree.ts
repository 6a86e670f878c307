import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

// A server's "tree" is every process in its process group plus every descendant of its root (a
// descendant may have left the group with setsid). On Linux this reads /proc directly: one readdir
// and one small read per process, cheaper than spawning `ps` (pidtree) twice a second. Elsewhere only
// the group is known (kill(-pgid)), and sampling falls back to pidtree + pidusage (sampler.ts).

export const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/stat');

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  /** 'R', 'S', 'Z' (zombie: dead, waiting to be reaped; never counted as alive), ... */
  state: string;
  /** clock ticks since boot; with pid it names one process even if the pid is reused */
  startTime: number;
  /** utime + stime + cutime + cstime, in clock ticks (cutime: reaped children move their time here) */
  cpuTicks: number;
  threads: number;
  rssPages: number;
}

/** Parses /proc/<pid>/stat. The command name is in parentheses and may contain spaces or ')'. */
export function parseStat(text: string): ProcInfo | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number.parseInt(text, 10);
  // Fields after the name, numbered as in proc(5) minus 3: state=0, ppid=1, pgrp=2, utime=11,
  // stime=12, cutime=13, cstime=14, num_threads=17, starttime=19, rss=21.
  const f = text.slice(close + 2).split(' ');
  if (f.length < 22) return null;
  const n = (i: number) => Number(f[i]);
  return {
    pid,
    ppid: n(1),
    pgrp: n(2),
    state: f[0] ?? '?',
    startTime: n(19),
    cpuTicks: n(11) + n(12) + n(13) + n(14),
    threads: n(17),
    rssPages: n(21),
  };
}

function pidDirs(names: string[]): string[] {
  return names.filter((name) => name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57);
}

/** Every live process, synchronously (used from process 'exit', where nothing async runs). */
export function listProcsSync(): ProcInfo[] {
  if (!HAS_PROC) return [];
  const out: ProcInfo[] = [];
  for (const name of pidDirs(readdirSync('/proc'))) {
    try {
      const info = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (info) out.push(info);
    } catch {
      // gone between readdir and read
    }
  }
  return out;
}

export async function listProcs(): Promise<ProcInfo[]> {
  if (!HAS_PROC) return [];
  const names = pidDirs(await readdir('/proc'));
  const stats = await Promise.all(
    names.map((name) =>
      readFile(`/proc/${name}/stat`, 'utf8').then(
        (text) => parseStat(text),
        () => null,
      ),
    ),
  );
  return stats.filter((s): s is ProcInfo => s !== null);
}

/** The live (non-zombie) processes of a server's tree: its group, and the descendants of any member. */
export function treeOf(procs: readonly ProcInfo[], rootPid: number, pgid: number): ProcInfo[] {
  const byParent = new Map<number, ProcInfo[]>();
  for (const p of procs) {
    const list = byParent.get(p.ppid);
    if (list) list.push(p);
    else byParent.set(p.ppid, [p]);
  }
  const seen = new Map<number, ProcInfo>();
  const stack = procs.filter((p) => p.pid === rootPid || p.pgrp === pgid);
  while (stack.length > 0) {
    const p = stack.pop() as ProcInfo;
    if (seen.has(p.pid)) continue;
    seen.set(p.pid, p);
    for (const child of byParent.get(p.pid) ?? []) stack.push(child);
  }
  return [...seen.values()].filter((p) => p.state !== 'Z');
}

/** A process identity that survives pid reuse. */
export type ProcKey = `${number}:${number}`;
export const procKey = (p: ProcInfo): ProcKey => `${p.pid}:${p.startTime}`;

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone; EPERM: not ours (cannot happen for our own children)
  }
}

/**
 * Signals the whole group, then every tree member outside the group (escaped with setsid).
 * Returns the members seen, so a caller can wait for exactly those to be gone.
 */
export function signalTreeSync(pgid: number, rootPid: number, signal: NodeJS.Signals): ProcInfo[] {
  const members = treeOf(listProcsSync(), rootPid, pgid);
  trySignal(-pgid, signal);
  for (const p of members) if (p.pgrp !== pgid) trySignal(p.pid, signal);
  return members;
}

/**
 * Live processes among: the group's members and the given processes (matched by pid and start time,
 * so a reused pid is not mistaken for a survivor). Zombies are dead. Without /proc: the group only.
 */
export async function survivors(pgid: number, known: readonly ProcInfo[]): Promise<ProcInfo[]> {
  if (!HAS_PROC) {
    try {
      process.kill(-pgid, 0);
      return [{ pid: pgid, ppid: 0, pgrp: pgid, state: '?', startTime: 0, cpuTicks: 0, threads: 0, rssPages: 0 }];
    } catch {
      return [];
    }
  }
  const keys = new Set(known.map(procKey));
  return (await listProcs()).filter((p) => p.state !== 'Z' && (p.pgrp === pgid || keys.has(procKey(p))));
}

let ticksPerSecond: number | undefined;
let pageSize: number | undefined;

function getconf(name: string, fallback: number): number {
  try {
    const value = Number(execFileSync('getconf', [name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isFinite(value) && value > 0 ? value : fallback;
  } catch {
    return fallback;
  }
}

/** USER_HZ (100 on every Linux the project runs on; asked once to be sure). */
export function clockTicks(): number {
  return (ticksPerSecond ??= getconf('CLK_TCK', 100));
}

export function pageBytes(): number {
  return (pageSize ??= getconf('PAGESIZE', 4096));
}
