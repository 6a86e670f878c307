import type { ArchitectureOptions } from '../contract/servers.js';
import { nowMs } from './clock.js';
import { Fifo } from './fifo.js';
import { Counters } from './stats.js';
import type { Work, WorkDone } from './work.js';
import { WorkProcess } from './work-process-handle.js';

// Seed 000's Master + Cooperator, the pool side. Each worker process runs one request at a time.
//
//   request -> queue (FIFO) -> first idle worker
//                  \-> Cooperator: no idle worker and more queued than already starting?
//                      spawn one (up to max); it takes the queue's head once ready
//   every tick: a worker idle for idleMs or more is retired, never below min
//
// So a request arriving while all workers are busy gets a new process, and its wait (Master accept ->
// worker start) includes that process's spawn time, as in the paper.

type State = 'starting' | 'idle' | 'busy';

interface Member {
  process: WorkProcess;
  state: State;
  idleSince: number;
}

interface Job {
  work: Work;
  resolve: (done: WorkDone) => void;
  reject: (err: Error) => void;
}

export class Cooperator {
  readonly counters = new Counters();
  private readonly members = new Set<Member>();
  private readonly queue = new Fifo<Job>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: ArchitectureOptions['autoscale']) {
    for (let i = 0; i < options.initial; i++) this.spawn();
    this.timer = setInterval(() => this.retireIdle(), Math.max(5, Math.min(250, options.idleMs / 4)));
    this.timer.unref();
  }

  get size(): number {
    return this.members.size;
  }

  /** Resolves once every initial worker is ready (so the Master announces a warm pool). */
  async warm(): Promise<void> {
    await Promise.all([...this.members].map((m) => m.process.ready));
  }

  submit(work: Work): Promise<WorkDone> {
    return new Promise((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      this.counters.queue = this.queue.size;
      this.cooperate();
      this.dispatch();
    });
  }

  stop(): void {
    clearInterval(this.timer);
    for (const m of this.members) m.process.stop();
  }

  private count(state: State): number {
    let n = 0;
    for (const m of this.members) if (m.state === state) n++;
    return n;
  }

  private cooperate(): void {
    while (this.count('idle') === 0 && this.queue.size > this.count('starting') && this.members.size < this.options.max) this.spawn();
  }

  private spawn(): void {
    const member: Member = { process: new WorkProcess(), state: 'starting', idleSince: nowMs() };
    this.members.add(member);
    this.counters.spawned++;
    member.process.onExit(() => {
      if (!this.members.delete(member)) return; // retired on purpose
      // An unexpected death: its request (if any) was rejected by the handle; keep the pool serving.
      this.cooperate();
      if (this.members.size < this.options.min) this.spawn();
    });
    member.process.ready.then(
      () => {
        if (member.state !== 'starting') return;
        member.state = 'idle';
        member.idleSince = nowMs();
        this.dispatch();
      },
      () => undefined,
    );
  }

  private dispatch(): void {
    for (const member of this.members) {
      if (this.queue.size === 0) break;
      if (member.state !== 'idle') continue;
      const job = this.queue.shift();
      if (!job) break;
      this.counters.queue = this.queue.size;
      member.state = 'busy';
      this.counters.start();
      member.process.run(job.work).then(
        (done) => {
          this.release(member);
          job.resolve(done);
        },
        (err: Error) => {
          this.release(member);
          job.reject(err);
        },
      );
    }
  }

  private release(member: Member): void {
    this.counters.finish();
    if (!this.members.has(member)) return;
    member.state = 'idle';
    member.idleSince = nowMs();
    this.dispatch();
  }

  private retireIdle(): void {
    const now = nowMs();
    for (const member of this.members) {
      if (this.members.size <= this.options.min) return;
      if (member.state === 'idle' && now - member.idleSince >= this.options.idleMs) {
        this.members.delete(member);
        this.counters.retired++;
        member.process.stop();
      }
    }
  }
}
