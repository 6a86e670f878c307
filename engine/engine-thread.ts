import type { CallName, CallResponse, EngineEvent, EngineHandlers, ParsedCallRequest } from '../contract/api.js';
import { fromApiError, LoadscopeError, type ErrorCode } from '../contract/errors.js';
import type { IpcOutcome } from '../contract/transport-ipc.js';
import type { EngineApiSurface } from './host/api-dispatch.js';
import { EventBus } from './event-bus.js';
import { startDistWorker } from './paths.js';

// The engine (store, orchestrator, supervisor) in a worker thread, for hosts whose own thread must
// stay responsive (Electron's main process runs the window, menus and IPC). Calls cross as
// { id, name, request } and come back as the IPC transport's outcomes ({ ok, value } | { ok, error }),
// so errors keep their code; events are forwarded as they are. engine-worker.ts is the other half.

/** To the worker. */
export type ToEngineWorker = { type: 'call'; id: number; name: string; request: unknown } | { type: 'close' };

/** From the worker. `fatal`: the engine could not start (e.g. the database would not open). */
export type FromEngineWorker =
  | { type: 'answer'; id: number; outcome: IpcOutcome }
  | { type: 'event'; event: EngineEvent }
  | { type: 'fatal'; error: { code: string; message: string } };

export interface EngineThreadOptions {
  /** The database file (--db); else the engine's default. */
  dbPath?: string;
  /** How long close() waits for the engine to stop its servers and exit before terminating it. */
  closeTimeoutMs?: number;
  /** The worker's compiled entry; tests point it elsewhere to exercise a dying worker. */
  entry?: string;
}

export interface EngineThread extends EngineApiSurface {
  /** Cancels the active run, stops its servers, closes the store and ends the thread. */
  close(): Promise<void>;
  /** False once the thread has exited (after close(), or because it died). */
  isAlive(): boolean;
}

const DEFAULT_CLOSE_TIMEOUT_MS = 20_000;

type Pending = { resolve: (value: unknown) => void; reject: (err: unknown) => void };

export function startEngineThread(options: EngineThreadOptions = {}): EngineThread {
  const worker = startDistWorker('engine/engine-worker.ts', { workerData: { dbPath: options.dbPath } }, options.entry);
  const bus = new EventBus();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let alive = true;
  let closing: Promise<void> | undefined;
  /** Why calls fail from now on: set when the thread is closing or gone. */
  let refusal: LoadscopeError | undefined;
  /** The engine's own reason for dying (a start failure, an uncaught error), kept for the message. */
  let cause: { code: ErrorCode; message: string; atStart: boolean } | undefined;

  const exited = new Promise<number>((resolve) => {
    worker.once('exit', (code) => {
      alive = false;
      refusal ??= cause?.atStart
        ? new LoadscopeError(cause.code, `the engine could not start: ${cause.message}`)
        : new LoadscopeError(cause?.code ?? 'LS_ERR_INTERNAL', `the engine thread stopped unexpectedly (exit code ${code})${cause ? `: ${cause.message}` : ''}`);
      for (const call of pending.values()) call.reject(refusal);
      pending.clear();
      resolve(code);
    });
  });

  worker.on('error', (err) => {
    // an uncaught exception in the engine; 'exit' follows and fails what is pending
    console.error('loadscope: the engine thread failed', err);
    cause ??= { code: 'LS_ERR_INTERNAL', message: err instanceof Error ? err.message : String(err), atStart: false };
  });
  worker.on('message', (msg: FromEngineWorker) => {
    switch (msg.type) {
      case 'answer': {
        const call = pending.get(msg.id);
        if (!call) return;
        pending.delete(msg.id);
        if (msg.outcome.ok) call.resolve(msg.outcome.value);
        else call.reject(fromApiError(msg.outcome.error));
        break;
      }
      case 'event':
        bus.emit(msg.event);
        break;
      case 'fatal': {
        const { code, message } = fromApiError(msg.error);
        cause = { code, message, atStart: true };
        break;
      }
    }
  });

  function post(message: ToEngineWorker): void {
    worker.postMessage(message);
  }

  function call<N extends CallName>(name: N, request: ParsedCallRequest<N>): Promise<CallResponse<N>> {
    if (refusal) return Promise.reject(refusal);
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      post({ type: 'call', id, name, request });
      // The worker answered with engine.handlers[name]'s own result (CallResponse<N>); the client
      // parses every response against the contract, so it is not parsed again on this thread.
    }) as Promise<CallResponse<N>>;
  }

  // Listed one by one so that tsc fails here when the contract gains a call.
  const handlers: EngineHandlers = {
    'scenarios:list': (r) => call('scenarios:list', r),
    'scenarios:get': (r) => call('scenarios:get', r),
    'scenarios:validate': (r) => call('scenarios:validate', r),
    'library:save': (r) => call('library:save', r),
    'library:import': (r) => call('library:import', r),
    'library:rename': (r) => call('library:rename', r),
    'library:delete': (r) => call('library:delete', r),
    'library:versions': (r) => call('library:versions', r),
    'runs:scenario': (r) => call('runs:scenario', r),
    'runs:start': (r) => call('runs:start', r),
    'runs:cancel': (r) => call('runs:cancel', r),
    'runs:list': (r) => call('runs:list', r),
    'runs:get': (r) => call('runs:get', r),
    'runs:windows': (r) => call('runs:windows', r),
    'runs:requests': (r) => call('runs:requests', r),
    'runs:compare': (r) => call('runs:compare', r),
    'runs:delete': (r) => call('runs:delete', r),
    'runs:export': (r) => call('runs:export', r),
  };

  async function close(): Promise<void> {
    if (!alive) return;
    refusal ??= new LoadscopeError('LS_ERR_INTERNAL', 'the engine is closed (the app is quitting)');
    post({ type: 'close' });
    const timeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    const result = await Promise.race([exited, deadline]);
    clearTimeout(timer);
    if (result === 'late') {
      console.error(`loadscope: the engine did not close within ${timeoutMs} ms; terminating its thread`);
      await worker.terminate();
      await exited;
    }
  }

  return {
    handlers,
    subscribe: (listener) => bus.subscribe(listener),
    close: () => (closing ??= close()),
    isAlive: () => alive,
  };
}
