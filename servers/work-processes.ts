import type { ArchitectureOptions } from '../contract/servers.js';
import { Counters } from './stats.js';
import type { Work, WorkDone } from './work.js';
import { WorkProcess } from './work-process-handle.js';

// offload's K long-lived work processes and how work is spread over them (seed 004's fib workers,
// seed 001's static load balancing). No queue at the front: work is sent at once, and each process
// runs what it was sent in order, so its backlog is its queue.
//   round-robin: 0, 1, ..., K-1, 0, ...        least-busy: the one with the fewest outstanding

export class WorkProcesses {
  readonly counters = new Counters();
  private readonly processes: WorkProcess[] = [];
  private next = 0;

  constructor(
    count: number,
    private readonly dispatch: ArchitectureOptions['offload']['dispatch'],
  ) {
    for (let i = 0; i < count; i++) this.processes.push(new WorkProcess());
    this.counters.spawned = count;
  }

  ready(): Promise<void> {
    return Promise.all(this.processes.map((p) => p.ready)).then(() => undefined);
  }

  get size(): number {
    return this.processes.filter((p) => p.alive).length;
  }

  private pick(): WorkProcess | undefined {
    const alive = this.processes.filter((p) => p.alive);
    if (alive.length === 0) return undefined;
    if (this.dispatch === 'least-busy') {
      let best = alive[0]!;
      for (const p of alive) if (p.outstanding < best.outstanding) best = p;
      return best;
    }
    this.next = (this.next + 1) % alive.length;
    return alive[this.next];
  }

  async run(work: Work): Promise<WorkDone> {
    const target = this.pick();
    if (!target) throw new Error('no work process alive');
    const result = target.run(work);
    this.counters.start();
    this.refresh();
    try {
      return await result;
    } finally {
      this.counters.finish();
      this.refresh();
    }
  }

  /** busy = processes with work outstanding; queue = work sent but not yet started. */
  private refresh(): void {
    let busy = 0;
    let outstanding = 0;
    for (const p of this.processes) {
      if (p.outstanding > 0) busy++;
      outstanding += p.outstanding;
    }
    this.counters.queue = outstanding - busy;
  }

  busyProcesses(): number {
    return this.processes.filter((p) => p.outstanding > 0).length;
  }

  stop(): void {
    for (const p of this.processes) p.stop();
  }
}
