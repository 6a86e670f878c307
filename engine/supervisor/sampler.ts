import http from 'node:http';
import pidtree from 'pidtree';
import pidusage from 'pidusage';
import { ServerStats } from '../../contract/servers.js';
import { clockTicks, HAS_PROC, listProcs, pageBytes, procKey, treeOf, type ProcKey } from './process-tree.js';

/** One sample of a server's whole process tree. busy/queue come from the server's stats endpoint. */
export interface ServerSampleData {
  /** ms since the server was ready */
  tMs: number;
  /** CPU of the whole tree over the last interval; 100 = one core busy */
  cpuPercent: number;
  rssBytes: number;
  processes: number;
  busy: number | null;
  queue: number | null;
}

export interface SamplerOptions {
  rootPid: number;
  pgid: number;
  intervalMs: number;
  /** GET this for busy/queue (bundled servers); null: leave them null */
  statsUrl: string | null;
  /** a group member not to count (an external command's reaper) */
  exclude?: number | null;
  onSample: (sample: ServerSampleData) => void;
}

export interface Sampler {
  stop(): void;
}

interface Previous {
  ticks: number;
  ppid: number;
}

/**
 * Samples every intervalMs until stopped. The timer is unref'd and re-armed only after a sample
 * completes, so samples never overlap and a stopped (or forgotten) sampler never keeps the process
 * alive.
 */
export function startSampler(opts: SamplerOptions): Sampler {
  const started = performance.now();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let prev = new Map<ProcKey, Previous>();
  let prevAt = performance.now();

  // CPU ticks of the tree since the last sample. A process reaped by a tree member moves its whole
  // lifetime into the reaper's cutime/cstime, so what was already counted for it is taken off again.
  const procSample = async (): Promise<{ cpuPercent: number; rssBytes: number; processes: number }> => {
    const tree = treeOf(await listProcs(), opts.rootPid, opts.pgid).filter((p) => p.pid !== opts.exclude);
    const now = performance.now();
    const next = new Map<ProcKey, Previous>();
    const livePids = new Set<number>();
    let ticks = 0;
    let rssPages = 0;
    for (const p of tree) {
      const key = procKey(p);
      ticks += p.cpuTicks - (prev.get(key)?.ticks ?? 0);
      rssPages += p.rssPages;
      next.set(key, { ticks: p.cpuTicks, ppid: p.ppid });
      livePids.add(p.pid);
    }
    for (const [key, old] of prev) if (!next.has(key) && livePids.has(old.ppid)) ticks -= old.ticks;
    const seconds = (now - prevAt) / 1000;
    prev = next;
    prevAt = now;
    const cpuPercent = seconds > 0 ? (Math.max(0, ticks) / clockTicks() / seconds) * 100 : 0;
    return { cpuPercent, rssBytes: rssPages * pageBytes(), processes: tree.length };
  };

  const portableSample = async (): Promise<{ cpuPercent: number; rssBytes: number; processes: number }> => {
    const pids = (await pidtree(opts.rootPid, { root: true })).filter((pid) => pid !== opts.exclude);
    const stats = await pidusage(pids);
    let cpuPercent = 0;
    let rssBytes = 0;
    for (const s of Object.values(stats)) {
      cpuPercent += s.cpu;
      rssBytes += s.memory;
    }
    return { cpuPercent, rssBytes, processes: pids.length };
  };

  const tick = async () => {
    try {
      const [usage, stats] = await Promise.all([HAS_PROC ? procSample() : portableSample(), opts.statsUrl ? fetchStats(opts.statsUrl, Math.min(400, opts.intervalMs)) : null]);
      if (stopped) return;
      opts.onSample({ tMs: Math.round(performance.now() - started), ...usage, busy: stats?.busy ?? null, queue: stats?.queue ?? null });
    } catch {
      // the tree vanished mid-read (the server is exiting): skip this sample
    }
    if (!stopped) arm();
  };
  const arm = () => {
    timer = setTimeout(() => void tick(), opts.intervalMs);
    timer.unref();
  };

  // A baseline, so the first sample's CPU covers one interval rather than the server's whole start.
  if (HAS_PROC) {
    void procSample().then(arm, arm);
  } else {
    arm();
  }
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** GET /__stats with a short timeout; null on any failure (a busy single-threaded server may not answer in time). */
export function fetchStats(url: string, timeoutMs: number): Promise<ServerStats | null> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          const parsed = ServerStats.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          resolve(parsed.success ? parsed.data : null);
        } catch {
          resolve(null);
        }
      });
      res.on('error', () => resolve(null));
    });
    req.on('socket', (socket) => socket.unref());
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}
