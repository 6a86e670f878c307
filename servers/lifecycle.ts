import type { ChildProcess } from 'node:child_process';
import { forgetChildPid, rememberChildPid, startWatchdog } from './watchdog.js';

// How every server process ends. Two roles:
// - the top process (the one the supervisor or `loadscope serve` started): SIGTERM / SIGINT, its IPC
//   channel closing, or its parent changing (polled every 500 ms) run the shutdown hooks (close the
//   listener, end the children), then exit 0, within SHUTDOWN_DEADLINE_MS whatever happens;
// - a child (cluster worker, forked work process): no signal handler, so SIGTERM kills it at once even
//   mid-fib; it exits by itself when its IPC channel to the top process closes or its parent changes.
// Processes whose main thread runs the work can be blocked for seconds (fib(45)), so they also get a
// watchdog thread (watchdog.ts) that notices a dead parent while the event loop cannot.

const SHUTDOWN_DEADLINE_MS = 1800;
const CHILD_GRACE_MS = 1000;
const PPID_POLL_MS = 500;

type Hook = () => void | Promise<void>;
const hooks: Hook[] = [];
const children = new Set<ChildProcess>();
let shuttingDown = false;

export function isShuttingDown(): boolean {
  return shuttingDown;
}

/** Runs at shutdown of the top process, in registration order, before the children are ended. */
export function onShutdown(hook: Hook): void {
  hooks.push(hook);
}

/** A child process that must not outlive this one. */
export function trackChild(child: ChildProcess): void {
  children.add(child);
  if (child.pid !== undefined) rememberChildPid(child.pid);
  child.once('exit', () => {
    children.delete(child);
    if (child.pid !== undefined) forgetChildPid(child.pid);
  });
}

async function endChildren(): Promise<void> {
  const alive = [...children].filter((c) => c.exitCode === null && c.signalCode === null);
  const exited = alive.map((c) => new Promise<void>((resolve) => c.once('exit', () => resolve())));
  for (const c of alive) c.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, CHILD_GRACE_MS)));
  await Promise.race([Promise.all(exited), grace]);
  clearTimeout(timer);
  for (const c of alive) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

export async function shutdown(code = 0): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  setTimeout(() => process.exit(code), SHUTDOWN_DEADLINE_MS).unref();
  for (const hook of hooks) {
    try {
      await hook();
    } catch {
      // Keep going: the point of shutting down is that everything else still gets ended.
    }
  }
  await endChildren();
  process.exit(code);
}

function watchParent(onGone: () => void): void {
  const parent = process.ppid;
  if (process.send) process.once('disconnect', onGone);
  setInterval(() => {
    if (process.ppid !== parent) onGone();
  }, PPID_POLL_MS).unref();
}

export interface LifecycleOptions {
  role: 'top' | 'child';
  /** Start a watchdog thread (processes whose main thread may be blocked by work). */
  watchdog: boolean;
  /** Top process only: a folder the watchdog removes if it has to kill the process. */
  ownedDir?: string;
}

export function installLifecycle(options: LifecycleOptions): void {
  if (options.role === 'top') {
    process.on('SIGTERM', () => void shutdown(0));
    process.on('SIGINT', () => void shutdown(0));
    watchParent(() => void shutdown(0));
  } else {
    watchParent(() => process.exit(0));
  }
  if (options.watchdog) startWatchdog(options.ownedDir);
}
