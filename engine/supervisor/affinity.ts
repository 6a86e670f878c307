import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';

// `cores: K` limits a server to K CPUs through Linux CPU affinity: the server is spawned through
// `taskset -c <list>`, which sets the affinity and execs the command (same pid), and every child,
// worker thread and grandchild inherits it. The K CPUs are the first K this process may use (0..K-1
// on an unrestricted machine); asking for more than there are caps K and says so in a note.

export interface Affinity {
  /** argv prefix: [taskset, '-c', list] */
  prefix: string[];
  /** the CPU list given to taskset, e.g. '0-1' */
  cpuList: string;
  cpus: number[];
  /** set when K was capped */
  note: string | null;
}

/** Parses a kernel CPU list ('0-3,8,10-11'). */
export function parseCpuList(text: string): number[] {
  const cpus: number[] = [];
  for (const part of text.trim().split(',')) {
    if (part === '') continue;
    const [from, to] = part.split('-').map((s) => Number.parseInt(s, 10));
    if (from === undefined || Number.isNaN(from)) continue;
    const last = to === undefined || Number.isNaN(to) ? from : to;
    for (let cpu = from; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** Formats CPUs as a kernel CPU list, joining runs: [0,1,2,5] -> '0-2,5'. */
export function formatCpuList(cpus: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < cpus.length; ) {
    let j = i;
    while (j + 1 < cpus.length && cpus[j + 1] === (cpus[j] as number) + 1) j++;
    parts.push(i === j ? String(cpus[i]) : `${cpus[i]}-${cpus[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The CPUs this process may run on (its own affinity, which a container or taskset may narrow). */
export function allowedCpus(): number[] {
  const status = readFileSync('/proc/self/status', 'utf8');
  const line = /^Cpus_allowed_list:\s*(.+)$/m.exec(status);
  return line?.[1] ? parseCpuList(line[1]) : [];
}

export function findExecutable(name: string, searchPath = process.env.PATH ?? ''): string | null {
  const candidates = name.includes('/') ? [name] : searchPath.split(delimiter).filter(Boolean).map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function affinityFor(cores: number): Affinity {
  if (process.platform !== 'linux') {
    throw new LoadscopeError('LS_ERR_SERVER_START', `cores: ${cores} needs Linux CPU affinity (taskset); this machine runs ${process.platform}. Remove "cores" from the server to run it unrestricted.`);
  }
  const taskset = findExecutable('/usr/bin/taskset') ?? findExecutable('taskset');
  if (!taskset) {
    throw new LoadscopeError('LS_ERR_SERVER_START', `cores: ${cores} needs taskset (from util-linux), found neither at /usr/bin/taskset nor on PATH. Install util-linux, or remove "cores" from the server.`);
  }
  const allowed = allowedCpus();
  if (allowed.length === 0) {
    throw new LoadscopeError('LS_ERR_SERVER_START', `cores: ${cores}: could not read this process's CPU affinity from /proc/self/status`);
  }
  const cpus = allowed.slice(0, cores);
  const note =
    cores > allowed.length ? `cores: ${cores} asked, but only ${allowed.length} CPU(s) (${formatCpuList(allowed)}) are available here: capped to ${allowed.length}` : null;
  const cpuList = formatCpuList(cpus);
  return { prefix: [taskset, '-c', cpuList], cpuList, cpus, note };
}
