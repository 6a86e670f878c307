import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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
let stderrGuarded = false;

/** The last lines a child wrote to stderr, bounded, for the one-line reason it did not start. */
class StderrTail {
  private static readonly MAX_BYTES = 8 * 1024;
  private text = '';

  add(chunk: Buffer): void {
    this.text = (this.text + chunk.toString('utf8')).slice(-StderrTail.MAX_BYTES);
  }

  /** "its last output: a | b" without stack frames and Node's version line, or "it printed nothing". */
  describe(): string {
    const lines = this.text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('at ') && !/^Node\.js v\d/.test(l))
      .slice(-4)
      .map((l) => (l.length > 300 ? `${l.slice(0, 297)}...` : l));
    return lines.length > 0 ? `its last output: ${lines.join(' | ')}` : 'it printed nothing';
  }
}

export class WorkProcess {
  readonly child: ChildProcess;
  /** Resolves once the child has loaded and said so. */
  readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private exitListeners: Array<() => void> = [];

  constructor(file = serverDistFile('work-process'), args: readonly string[] = []) {
    // stderr is piped, not inherited: what the child says before it is ready goes into the reason
    // it did not start (it is passed on to this process's stderr all the same). A child writes there
    // only when something fails, so the pipe never fills while this process is busy.
    this.child = fork(file, args, {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    trackChild(this.child);
    // a child's words passed on must not become this server's crash once its own stderr has gone
    if (!stderrGuarded) process.stderr.on('error', () => undefined);
    stderrGuarded = true;
    const said = new StderrTail();
    this.child.stderr?.on('data', (chunk: Buffer) => {
      said.add(chunk);
      process.stderr.write(chunk);
    });
    this.child.stderr?.on('error', () => undefined);
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      // 'close' (not 'exit'): by then the child's stderr has been read to its end
      this.child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
        const how = signal !== null ? `signal ${signal}` : `exit code ${code ?? '?'}`;
        // seen in issue 36: a `serve` started while `npm run build` rewrote dist/ (it empties it first)
        const why = existsSync(file) ? said.describe() : `its file ${file} is missing: dist/ is being rebuilt or was never built (\`npm run build\`)`;
        reject(new Error(`work process ${this.child.pid ?? '?'} exited before it was ready (${how}); ${why}`));
      });
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
