import { Worker } from 'node:worker_threads';
import { announceReady } from './announce.js';
import { bucketTotal, createBuckets } from './buckets.js';
import { closeFront, createFront, listen } from './http-front.js';
import { makeTransport } from './front-transport.js';
import { serverDistFile } from './launch.js';
import { onShutdown } from './lifecycle.js';
import { isWorkerReply } from './messages.js';
import type { Launch } from './options.js';
import { Counters } from './stats.js';
import type { Work, WorkDone } from './work.js';
import type { WorkThreadData } from './work-thread.js';

// thread-per-request (seed 003): every request gets a new worker thread that runs it and ends. Its
// wait is the thread's start-up; there is no queue. The shared bucket array is as in thread-pool.

export async function start(launch: Launch<'thread-per-request'>): Promise<void> {
  const buckets = createBuckets(launch.options.buckets);
  const counters = new Counters();
  const live = new Set<Worker>();

  function run(work: Work): Promise<WorkDone> {
    return new Promise((resolve, reject) => {
      const data: WorkThreadData = { mode: 'once', work, buckets };
      const worker = new Worker(serverDistFile('work-thread'), { workerData: data });
      live.add(worker);
      counters.spawned++;
      counters.start();
      let settled = false;
      worker.on('message', (message: unknown) => {
        if (!isWorkerReply(message) || message.type !== 'done') return;
        settled = true;
        counters.finish();
        resolve(message.done);
      });
      worker.once('error', (err) => {
        if (!settled) reject(err);
      });
      worker.once('exit', (code) => {
        live.delete(worker);
        counters.retired++;
        if (!settled) {
          counters.finish();
          reject(new Error(`request thread exited (${code}) without an answer`));
        }
      });
    });
  }

  const transport = await makeTransport(launch.options.protocol ?? 'h1');
  const server = createFront({
    dispatch: run,
    stats: () => counters.toStats('thread-per-request', 1, live.size, bucketTotal(buckets)),
  }, transport);
  onShutdown(async () => {
    closeFront(server);
    await Promise.all([...live].map((w) => w.terminate()));
  });
  const port = await listen(server, launch);
  announceReady('thread-per-request', launch.host, port, transport);
}
