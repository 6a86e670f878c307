import { rmSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import type { WatchdogData } from './watchdog.js';

// The watchdog thread's body (see watchdog.ts). It only reads shared memory and sends signals.

const POLL_MS = 500;
const GRACE_MS = 1000;
const data = workerData as WatchdogData;

function killEverything(): void {
  for (let i = 0; i < data.pids.length; i++) {
    const pid = Atomics.load(data.pids, i);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  if (data.ownedDir) rmSync(data.ownedDir, { recursive: true, force: true });
  process.kill(process.pid, 'SIGKILL');
}

const timer = setInterval(() => {
  if (process.ppid === data.parent) return;
  clearInterval(timer);
  setTimeout(killEverything, GRACE_MS);
}, POLL_MS);
