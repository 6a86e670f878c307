import type { Architecture, ServerStats } from '../contract/servers.js';

// Counters behind GET /__stats. Meaning of the fields, the same for every architecture:
//   processes: live OS processes of the server, the front included (single = 1, cluster = 1 + workers,
//              autoscale = Master + pool, offload = front + HTTP workers + work processes)
//   threads:   live worker threads doing requests (thread archs; 0 elsewhere)
//   busy:      requests being worked on now; queue: requests accepted and waiting for a worker
//   spawned / retired: workers (processes or threads) started / ended since start, initial ones included
//   handled:   workload requests answered (4xx and /__stats excluded)

export class Counters {
  busy = 0;
  queue = 0;
  spawned = 0;
  retired = 0;
  handled = 0;
  /** The most requests ever worked on at once (tests check concurrency limits with it). */
  maxBusy = 0;

  start(): void {
    this.busy++;
    if (this.busy > this.maxBusy) this.maxBusy = this.busy;
  }

  finish(): void {
    this.busy--;
    this.handled++;
  }

  toStats(architecture: Architecture, processes: number, threads: number, bucketTotal?: number): ServerStats {
    const stats: ServerStats = {
      architecture,
      processes,
      threads,
      busy: this.busy,
      queue: this.queue,
      spawned: this.spawned,
      retired: this.retired,
      handled: this.handled,
      maxBusy: this.maxBusy,
    };
    if (bucketTotal !== undefined) stats.bucketTotal = bucketTotal;
    return stats;
  }
}
