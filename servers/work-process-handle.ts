import { fork, type ChildProcess } from 'node:child_process';
import { serverDistFile } from './launch.js';
import { trackChild } from './lifecycle.js';
import { isWorkerReply, type WorkMessage } from './messages.js';
import type { Work, WorkDone } from './work.js';

// The front's handle on one forked work process: send work, get a promise of its result. Several
// pieces of work may be outstanding at once (offload's least-busy counts them); the child runs them
// in arrival order.

interface Pending {
  resolve: (done: WorkDone) => void;
  reject: (err: Error) => void;
}

let nextId = 1;

export class WorkProcess {
  readonly child: ChildProcess;
  /** Resolves once the child has loaded and said so. */
  readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private exitListeners: Array<() => void> = [];

  constructor() {
    this.child = fork(serverDistFile('work-process'), [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    trackChild(this.child);
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('exit', () => reject(new Error('work process exited before it was ready')));
      this.child.on('message', (message: unknown) => {
        if (!isWorkerReply(message)) return;
        if (message.type === 'ready') resolve();
        else this.settle(message.id, message.done);
      });
    });
    this.ready.catch(() => undefined);
    this.child.once('exit', (code, signal) => {
      const err = new Error(`work process ${this.child.pid ?? '?'} exited (${signal ?? code ?? '?'})`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      for (const listener of this.exitListeners) listener();
    });
  }

  get outstanding(): number {
    return this.pending.size;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  onExit(listener: () => void): void {
    this.exitListeners.push(listener);
  }

  run(work: Work): Promise<WorkDone> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (!this.alive || !this.child.connected) {
        reject(new Error('work process is gone'));
        return;
      }
      this.pending.set(id, { resolve, reject });
      const message: WorkMessage = { type: 'work', id, work };
      this.child.send(message);
    });
  }

  stop(): void {
    if (this.alive) this.child.kill('SIGTERM');
  }

  private settle(id: number, done: WorkDone): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    p?.resolve(done);
  }
}
