import { Worker } from 'node:worker_threads';
import { serverDistFile } from './launch.js';

// A tiny thread that watches the parent process while the main thread may be busy with work. If the
// parent changes and this process is still alive GRACE later (the main thread did not get to exit by
// itself), it SIGKILLs the children recorded in `pids`, removes the owned folder, and SIGKILLs its
// own process. The pid table is shared memory, so no message to the (blocked) main thread is needed.
//
//   pids: Int32Array(MAX_PIDS) in a SharedArrayBuffer; 0 = free slot, else a child's pid.

export const MAX_PIDS = 1024;
const pids = new Int32Array(new SharedArrayBuffer(MAX_PIDS * 4));

export function rememberChildPid(pid: number): void {
  for (let i = 0; i < MAX_PIDS; i++) if (Atomics.compareExchange(pids, i, 0, pid) === 0) return;
}

export function forgetChildPid(pid: number): void {
  for (let i = 0; i < MAX_PIDS; i++) if (Atomics.compareExchange(pids, i, pid, 0) === pid) return;
}

export interface WatchdogData {
  parent: number;
  pids: Int32Array;
  ownedDir?: string;
}

export function startWatchdog(ownedDir?: string): void {
  const data: WatchdogData = { parent: process.ppid, pids, ownedDir };
  const worker = new Worker(serverDistFile('watchdog-thread'), { workerData: data, stdout: false, stderr: false });
  worker.on('error', () => undefined); // a watchdog that failed to start must not take the server down
  worker.unref();
}
