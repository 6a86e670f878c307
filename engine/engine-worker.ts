import { parentPort, workerData } from 'node:worker_threads';
import { failureOf, outcomeOf, type IpcOutcome } from '../contract/transport-ipc.js';
import { toApiError } from '../contract/errors.js';
import { dispatchCall } from './host/api-dispatch.js';
import { createEngine, type Engine } from './engine.js';
import type { FromEngineWorker, ToEngineWorker } from './engine-thread.js';

// The engine thread's entry (started by engine-thread.ts from dist/engine/engine-worker.js): one
// engine, its calls answered through dispatchCall (so requests are parsed against the contract here
// too), its events posted to the host. Signal handlers never run in a worker thread, so the host
// must end a session with a 'close' message; if the whole process dies instead, the bundled servers
// notice their parent is gone and exit on their own.

const port = parentPort;
if (!port) throw new Error('engine-worker.js runs as a worker thread (see engine/engine-thread.ts)');

function send(message: FromEngineWorker): void {
  port!.postMessage(message);
}

const { dbPath } = workerData as { dbPath?: string };

function start(): Engine | undefined {
  try {
    return createEngine({ dbPath });
  } catch (err) {
    // Reported as a message (an Error thrown across threads loses its code); the host fails every
    // call with this reason.
    send({ type: 'fatal', error: toApiError(err) });
    return undefined;
  }
}

function answer(id: number, outcome: IpcOutcome): void {
  try {
    send({ type: 'answer', id, outcome });
  } catch (err) {
    // a value that cannot be cloned must not leave the call unanswered
    send({ type: 'answer', id, outcome: failureOf(err) });
  }
}

function serve(engine: Engine): void {
  const unsubscribe = engine.subscribe((event) => send({ type: 'event', event }));
  let closing = false;
  port!.on('message', (msg: ToEngineWorker) => {
    if (msg.type === 'close') {
      if (closing) return;
      closing = true;
      unsubscribe();
      engine
        .close()
        .catch((err: unknown) => console.error('loadscope: closing the engine failed', err))
        // process.exit in a worker ends this thread only; nothing is owed to the host after close
        .finally(() => process.exit(0));
      return;
    }
    dispatchCall(engine.handlers, msg.name, msg.request).then(
      (value) => answer(msg.id, outcomeOf(value)),
      (err: unknown) => answer(msg.id, failureOf(err)),
    );
  });
}

const engine = start();
if (engine) serve(engine);
else {
  // nothing left to run: the thread ends and the host reports the reason above
  process.exitCode = 1;
  port.close();
}
