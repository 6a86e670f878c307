import { ClusterStatsClient } from './cluster-stats.js';
import { createFront, listen } from './http-front.js';
import { transportFromEnv } from './front-transport.js';
import { InProcessDispatcher } from './in-process.js';
import { installLifecycle } from './lifecycle.js';
import { isToHttpWorker, type ToPrimary } from './messages.js';
import type { Work, WorkDone } from './work.js';

// An HTTP worker of offload with httpWorkers > 0 (a node:cluster worker). Where the work runs:
// - workIn 'workers': relayed through the primary, which owns the K work processes
//     HTTP worker --work--> primary --work--> work process --done--> primary --done--> HTTP worker
// - workIn 'http': in this worker's own event loop. Seed 004's "HTTP in per-CPU workers with fib in
//   the main process" ran fib in the cluster primary; here each HTTP worker runs its own requests'
//   work instead, so the primary stays a pure supervisor (our interpretation, documented in offload.ts).

const workIn = process.env.LOADSCOPE_OFFLOAD_WORK_IN === 'http' ? 'http' : 'workers';
installLifecycle({ role: 'child', watchdog: workIn === 'http' });

const local = new InProcessDispatcher(0, () => {
  throw new Error('stats come from the primary');
});
const stats = new ClusterStatsClient(local.counters);

const pending = new Map<number, (done: WorkDone) => void>();
let nextId = 1;
process.on('message', (message: unknown) => {
  if (!isToHttpWorker(message) || message.type !== 'done') return;
  const resolve = pending.get(message.id);
  pending.delete(message.id);
  resolve?.(message.done);
});

function relay(work: Work): Promise<WorkDone> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    if (!process.send || !process.connected) return reject(new Error('primary is gone'));
    pending.set(id, resolve);
    const message: ToPrimary = { type: 'work', id, work };
    process.send(message);
  });
}

const server = createFront({
  dispatch: (work) => (workIn === 'http' ? local.dispatch(work) : relay(work)),
  stats: () => stats.request(),
}, transportFromEnv());
await listen(server, { port: Number(process.env.LOADSCOPE_LISTEN_PORT ?? 0), host: process.env.LOADSCOPE_LISTEN_HOST ?? '127.0.0.1' });
