import { parentPort, workerData } from 'node:worker_threads';
import { nowMs } from './clock.js';
import { incrementRandomBucket, type BucketMemory } from './buckets.js';
import { isWorkMessage, type WorkerReply } from './messages.js';
import { runWork } from './run-work.js';
import type { Work } from './work.js';

// A worker thread of thread-pool (mode 'pool': runs every work message it gets, one at a time, as
// the pool sends only to idle threads) or thread-per-request (mode 'once': runs the work it was born
// with, replies, and ends). Every request increments a random shared bucket under its lock.

export type WorkThreadData = { buckets: BucketMemory } & ({ mode: 'pool' } | { mode: 'once'; work: Work });

const data = workerData as WorkThreadData;
const port = parentPort;

async function handle(id: number, work: Work): Promise<void> {
  const done = await runWork(work);
  incrementRandomBucket(data.buckets);
  done.procMs = nowMs() - done.startMs; // the bucket update is part of the request's work
  const reply: WorkerReply = { type: 'done', id, done };
  port?.postMessage(reply);
}

if (data.mode === 'once') {
  // Nothing else keeps this thread alive: it ends once the reply is posted.
  await handle(0, data.work);
} else {
  port?.on('message', (message: unknown) => {
    if (isWorkMessage(message)) void handle(message.id, message.work);
  });
  const ready: WorkerReply = { type: 'ready' };
  port?.postMessage(ready);
}
