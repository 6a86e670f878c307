import type { ServerStats } from '../contract/servers.js';
import type { Dispatcher } from './http-front.js';
import { Fifo } from './fifo.js';
import { runWork } from './run-work.js';
import { Counters } from './stats.js';
import type { Work, WorkDone } from './work.js';

// Work in the process's own event loop, at most `concurrency` requests at once (0 = no limit); the rest
// wait FIFO, and that queueing is their Server-Timing wait. With concurrency 1 a non-blocking sleep
// still holds the one slot until it ends, so requests never overlap (seed 002's sequential Rudy).

interface Waiting {
  work: Work;
  resolve: (done: WorkDone) => void;
}

export class InProcessDispatcher implements Dispatcher {
  readonly counters = new Counters();
  private readonly waiting = new Fifo<Waiting>();

  constructor(
    private readonly concurrency: number,
    private readonly describe: (counters: Counters) => ServerStats,
  ) {}

  dispatch(work: Work): Promise<WorkDone> {
    if (this.concurrency === 0 || this.counters.busy < this.concurrency) return this.run(work);
    return new Promise((resolve) => {
      this.waiting.push({ work, resolve });
      this.counters.queue = this.waiting.size;
    });
  }

  stats(): ServerStats {
    return this.describe(this.counters);
  }

  private async run(work: Work): Promise<WorkDone> {
    this.counters.start();
    return this.runInSlot(work);
  }

  /** Runs in a slot already counted busy; at the end the slot passes to the head of the queue. */
  private async runInSlot(work: Work): Promise<WorkDone> {
    try {
      return await runWork(work);
    } finally {
      const head = this.waiting.shift();
      this.counters.queue = this.waiting.size;
      if (head) {
        // Hand the slot over without releasing it (no late arrival can jump the queue), and start the
        // next request on the next turn, so this response is written before a synchronous fib begins.
        this.counters.handled++;
        setImmediate(() => void this.runInSlot(head.work).then(head.resolve));
      } else {
        this.counters.finish();
      }
    }
  }
}
