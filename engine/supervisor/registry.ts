// Every process group the supervisor starts is registered here until it is gone, so that no server
// outlives the process that started it:
//
//   process 'exit' (any exit path Node runs)  -> SIGKILL every group, synchronously
//   SIGINT / SIGTERM / SIGHUP                 -> stop every group (SIGTERM, SIGKILL after 1.5 s),
//                                                then re-raise the signal if nobody else listens
//   SIGKILL of this process (uncatchable)     -> the children's own parent-death watch (bundled
//                                                servers; reaper.ts for external commands)
//
// The handlers are installed when the first group registers and removed when the last one goes, so
// while no server runs, a host's own signal handling (or Node's default) is untouched. A host that
// handles Ctrl-C itself keeps doing so: when another listener exists for the signal, the supervisor
// stops its servers and leaves the exit to the host; the host may also call killAllServersNow()
// (synchronous) or stopAllServers() (graceful) first.

export interface Group {
  pgid: number;
  label: string;
  /** SIGTERM, SIGKILL after timeoutMs; resolves when the tree is gone */
  stop(timeoutMs: number): Promise<void>;
  /** SIGKILL the tree now, synchronously */
  killNow(): void;
}

const groups = new Map<number, Group>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type HandledSignal = (typeof SIGNALS)[number];
/** grace given to servers when this process gets a signal: short, the user wants out */
const SIGNAL_GRACE_MS = 1500;

let installed = false;
let handlingSignal = false;

const onExit = () => {
  killAllServersNow();
};

const onSignal = (signal: HandledSignal) => {
  // A second signal while the first is being handled: no more grace.
  if (handlingSignal) {
    killAllServersNow();
    reraise(signal);
    return;
  }
  handlingSignal = true;
  const othersListen = process.listeners(signal).some((l) => l !== signalListeners[signal]);
  void stopAllServers(SIGNAL_GRACE_MS).finally(() => {
    handlingSignal = false;
    if (!othersListen) reraise(signal);
  });
};

const signalListeners: Record<HandledSignal, () => void> = {
  SIGINT: () => onSignal('SIGINT'),
  SIGTERM: () => onSignal('SIGTERM'),
  SIGHUP: () => onSignal('SIGHUP'),
};

/** Dies of the signal (exit status 128 + n, as the shell expects) unless someone else now listens. */
function reraise(signal: HandledSignal): void {
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.on(signal, signalListeners[signal]);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', onExit);
  for (const signal of SIGNALS) process.off(signal, signalListeners[signal]);
}

export function registerGroup(group: Group): void {
  groups.set(group.pgid, group);
  install();
}

export function unregisterGroup(pgid: number): void {
  groups.delete(pgid);
  if (groups.size === 0 && !handlingSignal) uninstall();
}

/** How many server groups are alive (or not yet confirmed gone). */
export function runningServerCount(): number {
  return groups.size;
}

/**
 * SIGKILL every server tree this process started, synchronously. Safe to call from a host's own
 * signal or exit handler; returns how many groups were killed.
 */
export function killAllServersNow(): number {
  const all = [...groups.values()];
  for (const group of all) group.killNow();
  return all.length;
}

/** Stops every server this process started (SIGTERM, then SIGKILL after timeoutMs). */
export async function stopAllServers(timeoutMs = 5000): Promise<void> {
  await Promise.all([...groups.values()].map((group) => group.stop(timeoutMs)));
}
