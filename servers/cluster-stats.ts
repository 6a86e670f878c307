import type { Worker as ClusterWorker } from 'node:cluster';
import { ServerStats } from '../contract/servers.js';
import { isToHttpWorker, isToPrimary, type ToHttpWorker, type ToPrimary } from './messages.js';
import type { Counters } from './stats.js';

// /__stats for architectures whose HTTP runs in node:cluster workers. The worker that got the request
// asks the primary; the primary asks every worker for its counters (a worker blocked in a long fib
// cannot answer: after QUERY_TIMEOUT_MS it is counted busy, with its last known totals) and answers
// with the architecture's composed stats.
//
//   worker --stats-request--> primary --stats-query--> all workers --stats-reply--> primary
//   worker <--stats-answer--- primary

const QUERY_TIMEOUT_MS = 250;

export interface WorkerTotals {
  busy: number;
  queue: number;
  handled: number;
  maxBusy: number;
}

/** Primary side. `compose` turns the summed worker totals into the architecture's stats. */
export class ClusterStatsHub {
  private readonly lastKnown = new Map<number, WorkerTotals>();
  private readonly waiting = new Map<number, { expected: Set<number>; replies: Map<number, WorkerTotals>; done: () => void }>();
  private nextQuery = 1;

  constructor(
    private readonly workers: () => ClusterWorker[],
    private readonly compose: (totals: WorkerTotals) => ServerStats,
  ) {}

  /** Wire a newly forked worker's messages to the hub. */
  attach(worker: ClusterWorker): void {
    worker.on('message', (message: unknown) => {
      if (!isToPrimary(message)) return;
      if (message.type === 'stats-request') {
        void this.collect().then((totals) => {
          const answer: ToHttpWorker = { type: 'stats-answer', id: message.id, stats: this.compose(totals) };
          if (worker.isConnected()) worker.send(answer);
        });
      } else if (message.type === 'stats-reply') {
        const { busy, queue, handled, maxBusy } = message;
        this.lastKnown.set(worker.id, { busy, queue, handled, maxBusy });
        const query = this.waiting.get(message.id);
        if (query) {
          query.replies.set(worker.id, { busy, queue, handled, maxBusy });
          if (query.replies.size >= query.expected.size) query.done();
        }
      }
    });
  }

  async collect(): Promise<WorkerTotals> {
    const workers = this.workers().filter((w) => w.isConnected());
    const id = this.nextQuery++;
    const replies = new Map<number, WorkerTotals>();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, QUERY_TIMEOUT_MS);
      this.waiting.set(id, { expected: new Set(workers.map((w) => w.id)), replies, done: () => (clearTimeout(timer), resolve()) });
      if (workers.length === 0) resolve();
      const query: ToHttpWorker = { type: 'stats-query', id };
      for (const w of workers) w.send(query);
    });
    this.waiting.delete(id);
    const sum: WorkerTotals = { busy: 0, queue: 0, handled: 0, maxBusy: 0 };
    for (const w of workers) {
      const reply = replies.get(w.id);
      const known = reply ?? this.lastKnown.get(w.id);
      sum.busy += reply ? reply.busy : 1; // no answer: its event loop is busy with work
      sum.queue += known?.queue ?? 0;
      sum.handled += known?.handled ?? 0;
      sum.maxBusy += known?.maxBusy ?? 0;
    }
    return sum;
  }
}

/** Worker side: answers the primary's queries with `counters`, asks the primary for the stats. */
export class ClusterStatsClient {
  private readonly answers = new Map<number, (stats: ServerStats) => void>();
  private nextRequest = 1;

  constructor(counters: Counters) {
    process.on('message', (message: unknown) => {
      if (!isToHttpWorker(message)) return;
      if (message.type === 'stats-query') {
        const reply: ToPrimary = { type: 'stats-reply', id: message.id, busy: counters.busy, queue: counters.queue, handled: counters.handled, maxBusy: counters.maxBusy };
        process.send?.(reply);
      } else if (message.type === 'stats-answer') {
        const parsed = ServerStats.safeParse(message.stats);
        const answer = this.answers.get(message.id);
        this.answers.delete(message.id);
        if (answer && parsed.success) answer(parsed.data);
      }
    });
  }

  request(): Promise<ServerStats> {
    const id = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.answers.set(id, resolve);
      const message: ToPrimary = { type: 'stats-request', id };
      if (!process.send) reject(new Error('no primary to ask'));
      else process.send(message);
    });
  }
}
