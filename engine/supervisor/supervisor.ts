import { existsSync } from 'node:fs';
import { basename, resolve as resolvePath } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import type { BundledServer, ExternalServer, ServerSpec } from '../../contract/scenario.js';
import { STATS_PATH } from '../../contract/servers.js';
import { launchSpec } from '../../servers/launch.js';
import { distPath } from '../paths.js';
import { affinityFor, findExecutable, type Affinity } from './affinity.js';
import { ServerSkippedError } from './errors.js';
import type { LineListener } from './output.js';
import { pollH2c, pollUrl, waitForLine, waitForReadyMessage, type Check, type ReadinessTls } from './readiness.js';
import { isReaperMessage } from './reaper-protocol.js';
import { startSampler, type ServerSampleData, type StatsVia } from './sampler.js';
import { ServerProcess, withTimeout, type ExitInfo } from './server-process.js';

// The server supervisor: starts a bundled architecture or an external target in its own process
// group, optionally on K CPUs, samples its whole tree, and stops it. No orphan survives: see
// registry.ts for the exit and signal paths, reaper.ts for external commands.
//
// API (everything else in this folder is internal):
//   startServer(spec, opts) -> RunningServer      rejects with LoadscopeError('LS_ERR_SERVER_START')
//                                                 or ServerSkippedError (optional command missing)
//   killAllServersNow()  stopAllServers(ms)  runningServerCount()

export type { ExitInfo } from './server-process.js';
export type { ServerSampleData } from './sampler.js';
export type { LineListener, OutputStream } from './output.js';
export { ServerSkippedError, isServerSkipped, SERVER_SKIPPED } from './errors.js';
export { killAllServersNow, stopAllServers, runningServerCount } from './registry.js';

export interface StartOptions {
  /** every sampleIntervalMs: CPU%, RSS and process count of the whole tree, busy/queue from /__stats */
  onSample?: (sample: ServerSampleData) => void;
  /** every exit, expected (stop) or not */
  onExit?: (exit: ExitInfo) => void;
  /** only an exit the supervisor did not ask for: the run using the server should fail */
  onCrash?: (exit: ExitInfo) => void;
  /** the server's stdout/stderr, line by line */
  onLine?: LineListener;
  /** default 500; 0 turns sampling off */
  sampleIntervalMs?: number;
  /** cancels the start (the server is killed and startServer rejects); no effect once it runs */
  signal?: AbortSignal;
  /** bundled servers: how long to wait for the ready message (default 15 s). External: readiness.timeoutMs */
  readyTimeoutMs?: number;
  /** the person consented to load outside this machine (readiness probes go there too) */
  allowRemote?: boolean;
  /** an external https target's client certificate and SNI name, which the readiness probe shows too */
  readinessTls?: ReadinessTls;
}

export interface RunningServer {
  readonly label: string;
  /** http(s)://127.0.0.1:<port> for bundled servers; the spec's url for external ones */
  readonly url: string;
  /** a bundled server over TLS: its self-signed certificate (PEM), the one certificate a client trusts for it */
  readonly cert?: string;
  /** the server's process (an external command's own pid); null: an external server not started here */
  readonly pid: number | null;
  /** its process group (for an external command: the reaper's group, which the command is in) */
  readonly pgid: number | null;
  /** the CPUs it is limited to ('0-1'), null when unrestricted */
  readonly cpuList: string | null;
  /** things a report should mention (cores capped, cores ignored) */
  readonly notes: readonly string[];
  /** the samples so far (the last MAX_SAMPLES) */
  readonly samples: readonly ServerSampleData[];
  /** true once stop() was called: an exit from then on is expected */
  readonly stopping: boolean;
  /** settles when the server's root process exits, for whatever reason; never rejects */
  readonly exited: Promise<ExitInfo>;
  /** SIGTERM to the whole group, SIGKILL after timeoutMs (default 5000); resolves when the tree is gone */
  stop(timeoutMs?: number): Promise<void>;
}

/** An hour of samples at the default interval. */
export const MAX_SAMPLES = 7200;
const DEFAULT_READY_TIMEOUT_MS = 15_000;

export function startServer(spec: ServerSpec, opts: StartOptions = {}): Promise<RunningServer> {
  return spec.architecture === 'external' ? startExternal(spec, opts) : startBundled(spec, opts);
}

/** The environment of a server process (exported for the packaging test: the RunAsNode fuse depends on it). */
export function childEnv(): NodeJS.ProcessEnv {
  // Under Electron, process.execPath is the Electron binary: make it behave as plain Node.
  return process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env;
}

function notStarted(message: string): LoadscopeError {
  return new LoadscopeError('LS_ERR_SERVER_START', message);
}

/**
 * Start-up time allowed per V8 isolate (a process or a worker thread) a bundled server starts before
 * it is ready: a busy 2-core machine starts about 3-10 a second.
 */
const READY_MS_PER_ISOLATE = 300;

/** How many isolates (processes, or pre-created worker threads) a bundled server starts before it reports ready. */
function isolatesAtStart(spec: Pick<BundledServer, 'architecture'> & { options?: object }): number {
  const o = (spec.options ?? {}) as { workers?: number; initial?: number; httpWorkers?: number; threads?: number };
  if (spec.architecture === 'thread-pool') return 1 + (o.threads ?? 4);
  if (spec.architecture === 'cluster') return 1 + (o.workers ?? 2);
  if (spec.architecture === 'autoscale') return 1 + (o.initial ?? 1);
  if (spec.architecture === 'offload') return 1 + (o.workers ?? 2) + (o.httpWorkers ?? 0);
  return 1;
}

/** The readiness deadline of a bundled server: it grows with the isolates it starts (a hundred of them outlast a fixed deadline on a busy machine: docs/performance.md, "Figures behind the code"). */
export function bundledReadyTimeoutMs(spec: Pick<BundledServer, 'architecture'> & { options?: object }): number {
  return DEFAULT_READY_TIMEOUT_MS + READY_MS_PER_ISOLATE * isolatesAtStart(spec);
}

async function startBundled(spec: BundledServer, opts: StartOptions): Promise<RunningServer> {
  const launch = launchSpec(spec.architecture, spec.options);
  return startScriptServer(launch.file, launch.args, { label: spec.label ?? spec.architecture, cores: spec.cores }, { ...opts, readyTimeoutMs: opts.readyTimeoutMs ?? bundledReadyTimeoutMs(spec) });
}

/**
 * Starts a Node script that speaks the bundled servers' protocol (IPC ready message, GET /__stats,
 * exits on SIGTERM and on parent death). startServer uses it for the bundled architectures; tests
 * use it for fixture servers.
 */
export async function startScriptServer(file: string, args: readonly string[], server: { label: string; cores?: number }, opts: StartOptions = {}): Promise<RunningServer> {
  const { label } = server;
  if (!existsSync(file)) throw notStarted(`${label}: ${file} is missing; build first (npm run build)`);
  const affinity = server.cores === undefined ? null : affinityFor(server.cores);
  const argv = [...(affinity?.prefix ?? []), process.execPath, file, ...args];
  const proc = await ServerProcess.spawn({ label, argv }, childEnv());
  const detachLines = opts.onLine ? proc.output.onLine(opts.onLine) : undefined;
  const readyMessage = waitForReadyMessage(proc.child);
  await awaitReady(proc, [readyMessage], opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, opts.signal).catch((err: unknown) => {
    detachLines?.();
    throw err;
  });
  const ready = await readyMessage.done;
  const url = `${ready.cert === undefined ? 'http' : 'https'}://127.0.0.1:${ready.port}`;
  const statsVia = { ...(ready.cert !== undefined && { cert: ready.cert }), h2c: ready.protocol === 'h2c' };
  return supervise(proc, { label, url, ...(ready.cert !== undefined && { cert: ready.cert }), pid: proc.pid, affinity, statsUrl: url + STATS_PATH, statsVia, exclude: null, mapExit: null }, opts);
}

/** The exit code of a command that is not installed (the shell's convention). */
const NOT_INSTALLED_EXIT = 127;

async function startExternal(spec: ExternalServer, opts: StartOptions): Promise<RunningServer> {
  const label = spec.label ?? (spec.command?.[0] ? basename(spec.command[0]) : 'external');
  const timeoutMs = spec.readiness?.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const pattern = compileLine(label, spec.readiness?.line);
  if (!spec.command) return attach(spec, label, timeoutMs, opts);

  const [program, ...rest] = spec.command;
  const found = program ? findExecutable(program.includes('/') ? resolvePath(spec.cwd ?? '.', program) : program) : null;
  if (!program || !found) {
    const message = `${label}: command not found: ${program ?? '(empty)'} (not on PATH, or not executable)`;
    if (spec.optional) throw new ServerSkippedError(`${message}; skipped because the server is optional`);
    throw notStarted(message);
  }
  const affinity = spec.cores === undefined ? null : affinityFor(spec.cores);
  const reaper = distPath('engine/supervisor/reaper.ts');
  if (!existsSync(reaper)) throw notStarted(`${label}: ${reaper} is missing; build first (npm run build)`);
  const argv = [...(affinity?.prefix ?? []), process.execPath, reaper, JSON.stringify({ command: [found, ...rest], cwd: spec.cwd })];
  const proc = await ServerProcess.spawn({ label, argv, cwd: spec.cwd }, childEnv());
  const detachLines = opts.onLine ? proc.output.onLine(opts.onLine) : undefined;

  // The reaper reports the command's pid, a failure to spawn it, and how it exited.
  let commandPid: number | null = null;
  let commandExit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  let spawned: () => void = () => undefined;
  let spawnFailed: (err: Error) => void = () => undefined;
  const spawnCheck: Check<void> = {
    done: new Promise<void>((resolve, reject) => {
      spawned = resolve;
      spawnFailed = reject;
    }),
    cancel: () => undefined,
  };
  proc.child.on('message', (message: unknown) => {
    if (!isReaperMessage(message)) return;
    if (message.type === 'spawned') {
      commandPid = message.pid;
      spawned();
    } else if (message.type === 'exited') commandExit = { code: message.code, signal: message.signal };
    else if (message.type === 'spawn-error') {
      const text = `${label}: could not run ${spec.command?.join(' ')}: ${message.message}`;
      spawnFailed(message.code === 'ENOENT' && spec.optional ? new ServerSkippedError(text) : notStarted(text));
    }
  });

  const checks: Check<unknown>[] = [spawnCheck];
  if (pattern) checks.push(waitForLine(proc.output, pattern));
  if (!pattern || spec.readiness?.url) checks.push(readinessPoll(spec, opts));
  await awaitReady(proc, checks, timeoutMs, opts.signal).catch(async (err: unknown) => {
    detachLines?.();
    // 127 is the shell's "command not found": a wrapper script (scenarios/assets/nginx-4k.mjs) says
    // with it that the program it runs is not installed, which skips an optional server too
    const exit = commandExit ?? (await proc.exited);
    if (spec.optional && exit.code === NOT_INSTALLED_EXIT) throw new ServerSkippedError(`${err instanceof Error ? err.message : String(err)}; skipped because the server is optional`);
    throw err;
  });
  // The reaper exits with the command's code; its message also carries a signal. The message comes
  // before the IPC channel closes, so wait for that (briefly) before reporting the exit.
  const mapExit = async (info: ExitInfo): Promise<ExitInfo> => {
    if (!commandExit && proc.child.connected) await withTimeout(new Promise((r) => proc.child.once('disconnect', r)), 500);
    const exit: { code: number | null; signal: NodeJS.Signals | null } | null = commandExit;
    return exit ? { ...info, code: exit.code, signal: exit.signal, reason: exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}` } : info;
  };
  return supervise(proc, { label, url: spec.url, pid: commandPid ?? proc.pid, affinity, statsUrl: null, exclude: proc.pid, mapExit }, opts);
}

function compileLine(label: string, line: string | undefined): RegExp | null {
  if (line === undefined) return null;
  try {
    return new RegExp(line);
  } catch (err) {
    throw notStarted(`${label}: readiness.line is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Waits until every check passes. Fails (and kills the tree) if the process exits first, the deadline
 * passes, a check rejects, or the start is cancelled; the error carries the server's last output.
 */
async function awaitReady(proc: ServerProcess, checks: Check<unknown>[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const failure = new Promise<never>((_, reject) => {
    void proc.exited.then((exit) => reject(notStarted(`${proc.label} exited before it was ready (${exit.reason})${proc.output.describe()}`)));
    timer = setTimeout(() => reject(notStarted(`${proc.label} was not ready within ${timeoutMs} ms${proc.output.describe()}`)), timeoutMs);
    onAbort = () => reject(notStarted(`${proc.label}: start cancelled`));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([Promise.all(checks.map((c) => c.done)), failure]);
  } catch (err) {
    await proc.stop(1000).catch(() => undefined);
    throw err;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    for (const check of checks) check.cancel();
  }
}

interface Supervised {
  label: string;
  url: string;
  pid: number;
  affinity: Affinity | null;
  statsUrl: string | null;
  statsVia?: StatsVia;
  cert?: string;
  /** a process of the group not to count in samples (the reaper) */
  exclude: number | null;
  /** refines the exit report (an external command's own code and signal) */
  mapExit: ((info: ExitInfo) => Promise<ExitInfo>) | null;
}

function supervise(proc: ServerProcess, s: Supervised, opts: StartOptions): RunningServer {
  const samples: ServerSampleData[] = [];
  const interval = opts.sampleIntervalMs ?? 500;
  const sampler =
    interval > 0
      ? startSampler({
          rootPid: s.pid,
          pgid: proc.pgid,
          exclude: s.exclude,
          intervalMs: interval,
          statsUrl: s.statsUrl,
          ...(s.statsVia && { statsVia: s.statsVia }),
          onSample: (sample) => {
            samples.push(sample);
            if (samples.length > MAX_SAMPLES) samples.splice(0, samples.length - MAX_SAMPLES);
            opts.onSample?.(sample);
          },
        })
      : null;
  proc.onExit(() => sampler?.stop());
  const exited = s.mapExit ? proc.exited.then(s.mapExit) : proc.exited;
  void exited.then((exit) => {
    opts.onExit?.(exit);
    if (!exit.expected) opts.onCrash?.(exit);
  });
  return {
    label: s.label,
    url: s.url,
    ...(s.cert !== undefined && { cert: s.cert }),
    pid: s.pid,
    pgid: proc.pgid,
    cpuList: s.affinity?.cpuList ?? null,
    notes: s.affinity?.note ? [s.affinity.note] : [],
    samples,
    get stopping() {
      return proc.isStopping;
    },
    exited,
    stop(timeoutMs = 5000) {
      sampler?.stop();
      return proc.stop(timeoutMs);
    },
  };
}

/**
 * The readiness probe of an external server: over h2c where the load speaks it to the origin probed (a
 * gRPC server answers nothing else), else HTTP/1.1 or https: a readiness URL at another origin (a
 * health port beside an h2c-only server) is asked over HTTP/1.1.
 */
function readinessPoll(spec: ExternalServer, opts: StartOptions): Check<void> {
  const url = spec.readiness?.url ?? spec.url;
  const sameOrigin = new URL(url).origin === new URL(spec.url).origin;
  return spec.protocol === 'h2c' && sameOrigin && url.startsWith('http:') ? pollH2c(url, opts.allowRemote) : pollUrl(url, opts.allowRemote, opts.readinessTls);
}

/** An external server that is already running: only its readiness is checked; stop() does nothing. */
async function attach(spec: ExternalServer, label: string, timeoutMs: number, opts: StartOptions): Promise<RunningServer> {
  const url = spec.readiness?.url ?? spec.url;
  const check = readinessPoll(spec, opts);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      check.done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(notStarted(`${label}: nothing answered at ${url} within ${timeoutMs} ms (no command given, so it must already be running)`)), timeoutMs);
        onAbort = () => reject(notStarted(`${label}: start cancelled`));
        if (opts.signal?.aborted) onAbort();
        opts.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    check.cancel();
  }
  let stopping = false;
  let markStopped: (info: ExitInfo) => void = () => undefined;
  const exited = new Promise<ExitInfo>((resolve) => (markStopped = resolve));
  return {
    label,
    url: spec.url,
    pid: null,
    pgid: null,
    cpuList: null,
    notes: spec.cores === undefined ? [] : [`cores: ${spec.cores} ignored: ${label} was not started by Loadscope`],
    samples: [],
    get stopping() {
      return stopping;
    },
    exited,
    async stop() {
      stopping = true;
      const info: ExitInfo = { code: null, signal: null, expected: true, reason: 'not started by Loadscope', output: [] };
      markStopped(info);
      opts.onExit?.(info);
    },
  };
}
