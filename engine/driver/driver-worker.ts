import { parentPort, workerData } from 'node:worker_threads';
import { toApiError } from '../../contract/errors.js';
import { startGcLog } from './gc-log.js';
import { Runner } from './run.js';
import type { DriverPlan, FromWorkerMessage, ToWorkerMessage } from './types.js';

// The driver's worker thread: runs one plan (workerData.plan), posts FromWorkerMessage's, obeys
// ToWorkerMessage's. Started by runDriver (driver.ts) from dist/.
const port = parentPort;
if (!port) throw new Error('driver-worker must run in a worker thread');

const gcLog = startGcLog(process.env.LOADSCOPE_DRIVER_GC_LOG);
const post = (msg: FromWorkerMessage, transfer?: ArrayBuffer[]): void => {
  if (msg.type === 'done') gcLog?.write();
  port.postMessage(msg, transfer);
};

try {
  // the target (consent, TLS, protocol) is the plan's, made into one value by the Runner (transport/target.ts)
  const runner = new Runner((workerData as { plan: DriverPlan }).plan, post);
  port.on('message', (msg: ToWorkerMessage) => {
    if (msg.type === 'cancel') runner.cancel();
    else if (msg.type === 'append') void runner.append(msg.phase);
    else if (msg.type === 'rows-back') runner.rows.recycle(msg.rows);
    else runner.close();
  });
  runner.run().catch((err: unknown) => post({ type: 'error', ...toApiError(err) }));
} catch (err) {
  post({ type: 'error', ...toApiError(err) });
}
