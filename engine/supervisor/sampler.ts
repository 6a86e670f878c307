import http from 'node:http';
import https from 'node:https';
import http2 from 'node:http2';
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
  /** CPU of the tree's busiest process alone, same scale (one process doing all the work: not-parallel) */
  topCpuPercent: number;
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
  /** how to reach statsUrl beyond plain HTTP/1.1: the server's own certificate (https, h2), h2c */
  statsVia?: StatsVia;
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

type Usage = Pick<ServerSampleData, 'cpuPercent' | 'topCpuPercent' | 'rssBytes' | 'processes'>;

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
  const procSample = async (): Promise<Usage> => {
    const tree = treeOf(await listProcs(), opts.rootPid, opts.pgid).filter((p) => p.pid !== opts.exclude);
    const now = performance.now();
    const next = new Map<ProcKey, Previous>();
    const livePids = new Set<number>();
    // ticks per process over the interval, by pid (a live process's pid names it)
    const used = new Map<number, number>();
    let rssPages = 0;
    for (const p of tree) {
      const key = procKey(p);
      used.set(p.pid, p.cpuTicks - (prev.get(key)?.ticks ?? 0));
      rssPages += p.rssPages;
      next.set(key, { ticks: p.cpuTicks, ppid: p.ppid });
      livePids.add(p.pid);
    }
    for (const [key, old] of prev) if (!next.has(key) && livePids.has(old.ppid)) used.set(old.ppid, (used.get(old.ppid) ?? 0) - old.ticks);
    const seconds = (now - prevAt) / 1000;
    prev = next;
    prevAt = now;
    const percent = (ticks: number) => (seconds > 0 ? (Math.max(0, ticks) / clockTicks() / seconds) * 100 : 0);
    let ticks = 0;
    let top = 0;
    for (const t of used.values()) {
      ticks += t;
      top = Math.max(top, t);
    }
    return { cpuPercent: percent(ticks), topCpuPercent: percent(top), rssBytes: rssPages * pageBytes(), processes: tree.length };
  };

  const portableSample = async (): Promise<Usage> => {
    const pids = (await pidtree(opts.rootPid, { root: true })).filter((pid) => pid !== opts.exclude);
    const stats = await pidusage(pids);
    let cpuPercent = 0;
    let topCpuPercent = 0;
    let rssBytes = 0;
    for (const s of Object.values(stats)) {
      cpuPercent += s.cpu;
      topCpuPercent = Math.max(topCpuPercent, s.cpu);
      rssBytes += s.memory;
    }
    return { cpuPercent, topCpuPercent, rssBytes, processes: pids.length };
  };

  const tick = async () => {
    try {
      const [usage, stats] = await Promise.all([HAS_PROC ? procSample() : portableSample(), opts.statsUrl ? fetchStats(opts.statsUrl, Math.min(400, opts.intervalMs), opts.statsVia) : null]);
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

/** A bundled server's stats endpoint over TLS (trusting exactly its own certificate) or h2c. */
export interface StatsVia {
  /** PEM of the server's self-signed certificate (https:// URLs) */
  cert?: string;
  /** h2 with prior knowledge: the server answers no HTTP/1.1 */
  h2c?: boolean;
}

function parseStats(chunks: Buffer[]): ServerStats | null {
  try {
    const parsed = ServerStats.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** h2c's GET: one session per sample, as HTTP/1.1 below uses one connection per sample. */
function fetchStatsH2c(url: string, timeoutMs: number): Promise<ServerStats | null> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const session = http2.connect(target.origin);
    session.on('error', () => resolve(null));
    session.setTimeout(timeoutMs, () => session.destroy());
    session.socket.unref();
    const stream = session.request({ ':path': target.pathname });
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      session.close();
      resolve(parseStats(chunks));
    });
    stream.on('error', () => resolve(null));
    stream.on('close', () => resolve(null));
    stream.end();
  });
}

/** GET /__stats with a short timeout; null on any failure (a busy single-threaded server may not answer in time). */
export function fetchStats(url: string, timeoutMs: number, via: StatsVia = {}): Promise<ServerStats | null> {
  if (via.h2c) return fetchStatsH2c(url, timeoutMs);
  return new Promise((resolve) => {
    const onResponse = (res: http.IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(parseStats(chunks)));
      res.on('error', () => resolve(null));
    };
    const req = url.startsWith('https:') ? https.get(url, { agent: false, timeout: timeoutMs, ca: via.cert }, onResponse) : http.get(url, { agent: false, timeout: timeoutMs }, onResponse);
    req.on('socket', (socket) => socket.unref());
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}
