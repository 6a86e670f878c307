import cluster, { type Worker as ClusterWorker } from 'node:cluster';
import type { ServerStats } from '../contract/servers.js';
import { announceReady } from './announce.js';
import { nowMs } from './clock.js';
import { ClusterStatsHub, type WorkerTotals } from './cluster-stats.js';
import { closeFront, createFront, listen } from './http-front.js';
import { makeTransport, transportEnv, type FrontTransport } from './front-transport.js';
import { InProcessDispatcher } from './in-process.js';
import { serverDistFile } from './launch.js';
import { isShuttingDown, onShutdown, trackChild } from './lifecycle.js';
import { isToPrimary, type ToHttpWorker } from './messages.js';
import type { Launch } from './options.js';
import { textResult } from './work.js';
import { WorkProcesses } from './work-processes.js';

// offload (seeds 004 and 001): HTTP in this process, or in `httpWorkers` node:cluster workers
// (offload-http-worker.ts); the work runs in `workers` long-lived forked work processes owned by this
// process (work-processes.ts), or, with workIn 'http', in the HTTP process itself:
//   httpWorkers 0, workIn http     seed 004's "fib in the HTTP process"
//   httpWorkers 0, workIn workers  "one long-lived fib worker" (K = 1) / "one per CPU, round-robin"
//   httpWorkers N, workIn http     "HTTP in per-CPU workers, fib in the main process": the gist ran
//                                  fib in the cluster primary; we run it in each HTTP worker (the
//                                  primary only supervises), which keeps every request's work in the
//                                  process that accepted it
//   httpWorkers N, workIn workers  "8 fib workers + 8 HTTP workers + a main process in the middle":
//                                  HTTP workers relay work through this primary to the K processes

type OffloadOptions = Launch<'offload'>['options'];

function stats(processes: number, busy: number, c: { queue: number; handled: number; maxBusy: number; spawned: number }): ServerStats {
  return { architecture: 'offload', processes, threads: 0, busy, queue: c.queue, spawned: c.spawned, retired: 0, handled: c.handled, maxBusy: c.maxBusy };
}

async function startSingleFront(launch: Launch<'offload'>, o: OffloadOptions, transport: FrontTransport): Promise<number> {
  const pool = o.workIn === 'workers' ? new WorkProcesses(o.workers, o.dispatch) : undefined;
  const local = new InProcessDispatcher(0, (c) => stats(1, c.busy, c));
  const server = createFront({
    dispatch: (work) => (pool ? pool.run(work) : local.dispatch(work)),
    stats: () => (pool ? stats(1 + pool.size, pool.busyProcesses(), pool.counters) : local.stats()),
  }, transport);
  onShutdown(() => {
    pool?.stop();
    closeFront(server);
  });
  await pool?.ready();
  return listen(server, launch);
}

async function startClusterFront(launch: Launch<'offload'>, o: OffloadOptions, transport: FrontTransport): Promise<number> {
  const pool = o.workIn === 'workers' ? new WorkProcesses(o.workers, o.dispatch) : undefined;
  cluster.setupPrimary({ exec: serverDistFile('offload-http-worker'), serialization: 'advanced' });
  const workers = new Set<ClusterWorker>();
  const compose = (t: WorkerTotals): ServerStats =>
    pool
      ? stats(1 + workers.size + pool.size, pool.busyProcesses(), { ...pool.counters, spawned: o.httpWorkers + o.workers })
      : stats(1 + workers.size, t.busy, { ...t, spawned: o.httpWorkers });
  const hub = new ClusterStatsHub(() => [...workers], compose);
  const env = { LOADSCOPE_LISTEN_PORT: String(launch.port), LOADSCOPE_LISTEN_HOST: launch.host, LOADSCOPE_OFFLOAD_WORK_IN: o.workIn, ...transportEnv(transport) };
  onShutdown(() => {
    pool?.stop();
    for (const w of workers) w.process.kill('SIGTERM');
  });
  await pool?.ready();
  return new Promise<number>((resolve, reject) => {
    let listening = 0;
    for (let i = 0; i < o.httpWorkers; i++) {
      const worker = cluster.fork(env);
      workers.add(worker);
      trackChild(worker.process);
      hub.attach(worker);
      worker.on('message', (message: unknown) => {
        if (!pool || !isToPrimary(message) || message.type !== 'work') return;
        void pool.run(message.work).then(
          (done) => {
            const reply: ToHttpWorker = { type: 'done', id: message.id, done };
            if (worker.isConnected()) worker.send(reply);
          },
          (err: unknown) => {
            const failed = textResult(502, `work process failed: ${err instanceof Error ? err.message : String(err)}`);
            const reply: ToHttpWorker = { type: 'done', id: message.id, done: { result: failed, startMs: nowMs(), procMs: 0 } };
            if (worker.isConnected()) worker.send(reply);
          },
        );
      });
      worker.once('listening', (address) => {
        if (++listening === o.httpWorkers) resolve(address.port);
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        if (listening < o.httpWorkers) reject(new Error(`HTTP worker exited before listening (${signal ?? code})`));
        else if (!isShuttingDown()) process.stderr.write(`loadscope-server offload: HTTP worker ${worker.process.pid ?? '?'} exited (${signal ?? code})\n`);
      });
    }
  });
}

export async function start(launch: Launch<'offload'>): Promise<void> {
  const o = launch.options;
  const transport = await makeTransport(o.protocol ?? 'h1');
  const port = o.httpWorkers > 0 ? await startClusterFront(launch, o, transport) : await startSingleFront(launch, o, transport);
  announceReady('offload', launch.host, port, transport);
}
