import { spawn, type ChildProcess } from 'node:child_process';
import { LoadscopeError } from '../../contract/errors.js';
import { OutputTail } from './output.js';
import { signalTreeSync, survivors, type ProcInfo } from './process-tree.js';
import { registerGroup, unregisterGroup } from './registry.js';

// One supervised process group: spawn (detached, so it leads its own group), exit tracking, and the
// kill paths. Readiness and sampling are layered on top by supervisor.ts.
//
// Invariant: the group is in the registry from the moment it has a pid until every process of its
// tree is confirmed gone, so the exit and signal handlers can always reach it.

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** true when the supervisor stopped it (stop(), a failed start, or this process shutting down) */
  expected: boolean;
  /** 'exit code 1', 'signal SIGKILL' */
  reason: string;
  /** its last output lines */
  output: string[];
}

export interface SpawnSpec {
  label: string;
  argv: string[];
  cwd?: string;
}

const GONE_POLL_MS = 25;
const KILL_WAIT_MS = 3000;

export class ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly output = new OutputTail();
  readonly exited: Promise<ExitInfo>;
  private stopping = false;
  private exitInfo: ExitInfo | null = null;
  private stopPromise: Promise<void> | null = null;
  private readonly known: ProcInfo[] = [];
  private readonly exitListeners: Array<(info: ExitInfo) => void> = [];

  private constructor(
    readonly label: string,
    child: ChildProcess,
    pid: number,
  ) {
    this.child = child;
    this.pid = pid;
    this.output.attach(child.stdout, 'stdout');
    this.output.attach(child.stderr, 'stderr');
    registerGroup({ pgid: pid, label, stop: (ms) => this.stop(ms), killNow: () => this.killNow() });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        const info: ExitInfo = {
          code,
          signal,
          expected: this.stopping,
          reason: signal ? `signal ${signal}` : `exit code ${code}`,
          output: this.output.lines(),
        };
        this.exitInfo = info;
        resolve(info);
        for (const listener of this.exitListeners) listener(info);
        // A root that died on its own may leave children behind: clear the group.
        // (Not through stop(): `stopping` stays false, so callers see a crash.)
        if (!this.stopping) this.stopPromise ??= this.terminate(0);
      });
    });
  }

  /** Spawns argv detached; resolves once it runs, rejects (LS_ERR_SERVER_START) if it cannot start. */
  static spawn(spec: SpawnSpec, env: NodeJS.ProcessEnv): Promise<ServerProcess> {
    const [file, ...args] = spec.argv;
    if (!file) return Promise.reject(new LoadscopeError('LS_ERR_SERVER_START', `${spec.label}: empty command`));
    return new Promise((resolve, reject) => {
      const child = spawn(file, args, { cwd: spec.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], windowsHide: true });
      child.once('error', (err) => reject(new LoadscopeError('LS_ERR_SERVER_START', `${spec.label} could not be started (${spec.argv.join(' ')}): ${err.message}`)));
      child.once('spawn', () => {
        if (child.pid === undefined) reject(new LoadscopeError('LS_ERR_SERVER_START', `${spec.label}: spawned without a pid`));
        else resolve(new ServerProcess(spec.label, child, child.pid));
      });
    });
  }

  get pgid(): number {
    return this.pid;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  onExit(listener: (info: ExitInfo) => void): void {
    if (this.exitInfo) listener(this.exitInfo);
    else this.exitListeners.push(listener);
  }

  /** SIGTERM to the tree, SIGKILL after timeoutMs; resolves when no process of the tree is left. */
  stop(timeoutMs = 5000): Promise<void> {
    this.stopping = true;
    this.stopPromise ??= this.terminate(timeoutMs);
    return this.stopPromise;
  }

  /** SIGKILL the tree synchronously (exit handler; no waiting possible there). */
  killNow(): void {
    this.stopping = true;
    signalTreeSync(this.pgid, this.pid, 'SIGKILL');
  }

  private async terminate(timeoutMs: number): Promise<void> {
    try {
      if (timeoutMs > 0) {
        this.known.push(...signalTreeSync(this.pgid, this.pid, 'SIGTERM'));
        if (await this.waitGone(timeoutMs)) return;
      }
      this.known.push(...signalTreeSync(this.pgid, this.pid, 'SIGKILL'));
      if (!(await this.waitGone(KILL_WAIT_MS))) {
        const left = (await survivors(this.pgid, this.known)).map((p) => p.pid);
        throw new LoadscopeError('LS_ERR_INTERNAL', `${this.label}: processes ${left.join(', ')} survived SIGKILL`);
      }
    } finally {
      // The root's 'exit' follows its death at once; wait for it so `exited` has settled.
      if (!this.exitInfo) await withTimeout(this.exited, KILL_WAIT_MS);
      // An escaped grandchild may still hold the pipes open: stop reading them.
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
      if (this.child.connected) this.child.disconnect();
      unregisterGroup(this.pgid);
    }
  }

  private async waitGone(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if ((await survivors(this.pgid, this.known)).length === 0) return true;
      if (performance.now() >= deadline) return false;
      await delay(GONE_POLL_MS, true);
    }
  }
}

/** Resolves with the promise's value, or undefined after ms; never leaves a timer behind. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function delay<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}
