import { Worker } from 'node:worker_threads';
import { announceReady } from './announce.js';
import { bucketTotal, createBuckets } from './buckets.js';
import { Fifo } from './fifo.js';
import { closeFront, createFront, listen } from './http-front.js';
import { makeTransport } from './front-transport.js';
import { serverDistFile } from './launch.js';
import { onShutdown } from './lifecycle.js';
import { isWorkerReply, type WorkMessage } from './messages.js';
import type { Launch } from './options.js';
import { Counters } from './stats.js';
import type { Work, WorkDone } from './work.js';
import type { WorkThreadData } from './work-thread.js';

// thread-pool (seed 003): `threads` worker threads created at start; the main thread accepts HTTP and
// queues requests FIFO; an idle thread takes the queue's head. Every request increments a shared
// bucket under its lock (buckets.ts); /__stats reports the buckets' sum beside handled.

interface Job {
  id: number;
  work: Work;
  resolve: (done: WorkDone) => void;
}

interface PoolThread {
  worker: Worker;
  job?: Job;
}

export async function start(launch: Launch<'thread-pool'>): Promise<void> {
  const buckets = createBuckets(launch.options.buckets);
  const counters = new Counters();
  const queue = new Fifo<Job>();
  const idle: PoolThread[] = [];
  const threads: PoolThread[] = [];
  let nextId = 1;

  function assign(thread: PoolThread, job: Job): void {
    thread.job = job;
    counters.start();
    const message: WorkMessage = { type: 'work', id: job.id, work: job.work };
    thread.worker.postMessage(message);
  }

  const ready = Array.from({ length: launch.options.threads }, () => {
    const data: WorkThreadData = { mode: 'pool', buckets };
    const thread: PoolThread = { worker: new Worker(serverDistFile('work-thread'), { workerData: data }) };
    threads.push(thread);
    counters.spawned++;
    return new Promise<void>((resolve, reject) => {
      thread.worker.once('error', reject);
      thread.worker.on('message', (message: unknown) => {
        if (!isWorkerReply(message)) return;
        if (message.type === 'done') {
          const job = thread.job;
          thread.job = undefined;
          counters.finish();
          job?.resolve(message.done);
        } else resolve();
        const next = queue.shift();
        counters.queue = queue.size;
        if (next) assign(thread, next);
        else idle.push(thread);
      });
    });
  });
  await Promise.all(ready);

  const transport = await makeTransport(launch.options.protocol ?? 'h1');
  const server = createFront({
    dispatch: (work) =>
      new Promise((resolve) => {
        const job: Job = { id: nextId++, work, resolve };
        const thread = idle.pop();
        if (thread) assign(thread, job);
        else {
          queue.push(job);
          counters.queue = queue.size;
        }
      }),
    stats: () => counters.toStats('thread-pool', 1, threads.length, bucketTotal(buckets)),
  }, transport);
  onShutdown(async () => {
    closeFront(server);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  });
  const port = await listen(server, launch);
  announceReady('thread-pool', launch.host, port, transport);
}
