import { failureOf, outcomeOf, type IpcOutcome } from '../../contract/transport-ipc.js';
import { toApiError } from '../../contract/errors.js';
import { dispatchCall } from './api-dispatch.js';
import { createEngine, type Engine } from '../engine.js';
import type { EngineChildOptions, FromEngineProcess, ToEngineProcess } from './engine-process.js';
import { currentRuntime, defaultPlaces, loadSqliteBinding } from './native-binding.js';

// The engine process's entry (started by engine-process.ts from dist/engine/host/engine-child.js, on a
// Node or on Electron's Node through ELECTRON_RUN_AS_NODE): one engine, its calls answered through
// dispatchCall (the one parse of a desktop call: the main process forwards it raw), its events sent
// to the host.
// When the host goes away without a 'close' (it crashed or was killed), the IPC channel disconnects
// and the engine closes all the same, stopping its servers.

const send = process.send?.bind(process);
if (!send) throw new Error('engine-child.js runs as a child process with an IPC channel (see engine/host/engine-process.ts)');

function post(message: FromEngineProcess, sent?: () => void): void {
  if (process.connected) send!(message, undefined, {}, () => sent?.());
  else sent?.();
}

function parseOptions(arg: string | undefined): EngineChildOptions {
  const parsed: unknown = JSON.parse(arg ?? '{}');
  return typeof parsed === 'object' && parsed !== null ? (parsed as EngineChildOptions) : {};
}

function disconnect(): void {
  if (process.connected) process.disconnect?.();
}

/** The reason the engine cannot run, then the channel closes (an open channel keeps the process alive). */
function fail(err: unknown): void {
  post({ type: 'fatal', error: toApiError(err) }, disconnect);
}

function start(): Engine | undefined {
  try {
    const { dbPath, packaged } = parseOptions(process.argv[2]);
    // Chosen explicitly, so a binary built for another ABI is one clear line, not a dlopen stack.
    const nativeBinding = loadSqliteBinding(currentRuntime(), defaultPlaces(packaged === true));
    return createEngine({ dbPath, nativeBinding, watchRuns: true });
  } catch (err) {
    // Reported as a message (an Error does not cross processes with its code); the host fails
    // every call with this reason and shows it.
    fail(err);
    return undefined;
  }
}

function answer(id: number, outcome: IpcOutcome): void {
  try {
    post({ type: 'answer', id, outcome });
  } catch (err) {
    // a value that cannot be serialized must not leave the call unanswered
    post({ type: 'answer', id, outcome: failureOf(err) });
  }
}

function serve(engine: Engine): void {
  const unsubscribe = engine.subscribe((event) => post({ type: 'event', event }));
  let closing = false;
  function close(): void {
    if (closing) return;
    closing = true;
    unsubscribe();
    engine
      .close()
      .catch((err: unknown) => console.error('loadscope: closing the engine failed', err))
      .finally(() => {
        disconnect();
        process.exit(0);
      });
  }
  process.on('disconnect', close);
  process.on('message', (msg: ToEngineProcess) => {
    if (msg.type === 'close') return close();
    dispatchCall(engine.handlers, msg.name, msg.request).then(
      (value) => answer(msg.id, outcomeOf(value)),
      (err: unknown) => answer(msg.id, failureOf(err)),
    );
  });
}

const engine = start();
if (engine) serve(engine);
else process.exitCode = 1; // nothing left to run: the process ends once the reason is sent
