import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

// A target on 127.0.0.1 that answers from a thread of its own: a test whose listener stalls this
// thread (a slow store) still has a server that answers the driver meanwhile. Every request gets
// 200 "ok"; `answered` counts them across the threads.

export interface ThreadServer {
  url: string;
  /** requests answered so far (read through shared memory: right even while this thread was stalled) */
  answered(): number;
  close(): Promise<void>;
}

const SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const answered = new Int32Array(workerData.counter);
const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  Atomics.add(answered, 0, 1);
  res.end('ok');
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

export async function startThreadServer(): Promise<ThreadServer> {
  const counter = new SharedArrayBuffer(4);
  const answered = new Int32Array(counter);
  const worker = new Worker(SERVER, { eval: true, workerData: { counter } });
  const [port] = (await once(worker, 'message')) as [number];
  return {
    url: `http://127.0.0.1:${port}`,
    answered: () => Atomics.load(answered, 0),
    close: async () => {
      await worker.terminate();
    },
  };
}
