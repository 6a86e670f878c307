import cluster, { type Worker as ClusterWorker } from 'node:cluster';
import { announceReady } from './announce.js';
import { ClusterStatsHub } from './cluster-stats.js';
import { makeTransport, transportEnv } from './front-transport.js';
import { serverDistFile } from './launch.js';
import { onShutdown, trackChild, isShuttingDown } from './lifecycle.js';
import type { Launch } from './options.js';

// cluster (seeds 000 and 004's recent solution): a node:cluster primary with `workers` worker
// processes, each serving HTTP and running the work in its event loop (cluster-worker.ts). The
// primary answers no request itself; it announces the shared port once every worker listens.

export async function start(launch: Launch<'cluster'>): Promise<void> {
  const count = launch.options.workers;
  cluster.setupPrimary({ exec: serverDistFile('cluster-worker'), serialization: 'advanced', silent: false });
  const workers = new Set<ClusterWorker>();
  const hub = new ClusterStatsHub(
    () => [...workers],
    (t) => ({ architecture: 'cluster', processes: 1 + workers.size, threads: 0, busy: t.busy, queue: t.queue, spawned: count, retired: 0, handled: t.handled, maxBusy: t.maxBusy }),
  );
  const transport = await makeTransport(launch.options.protocol ?? 'h1');
  const env = { LOADSCOPE_LISTEN_PORT: String(launch.port), LOADSCOPE_LISTEN_HOST: launch.host, ...transportEnv(transport) };

  const port = await new Promise<number>((resolve, reject) => {
    let listening = 0;
    for (let i = 0; i < count; i++) {
      const worker = cluster.fork(env);
      workers.add(worker);
      trackChild(worker.process);
      hub.attach(worker);
      worker.once('listening', (address) => {
        if (++listening === count) resolve(address.port);
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        if (listening < count) reject(new Error(`cluster worker exited before listening (${signal ?? code})`));
        else if (!isShuttingDown()) process.stderr.write(`loadscope-server cluster: worker ${worker.process.pid ?? '?'} exited (${signal ?? code})\n`);
      });
    }
  });
  onShutdown(() => {
    for (const w of workers) w.process.kill('SIGTERM');
  });
  announceReady('cluster', launch.host, port, transport);
}
