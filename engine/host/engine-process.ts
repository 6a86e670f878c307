import { spawn } from 'node:child_process';
import { CALL_NAMES, type CallName, type EngineEvent, type EngineHandlers } from '../../contract/api.js';
import { fromApiError, LoadscopeError, type ErrorCode } from '../../contract/errors.js';
import type { IpcOutcome } from '../../contract/transport-ipc.js';
import type { EngineApiSurface } from './api-dispatch.js';
import { EventBus } from '../event-bus.js';
import { distPath } from '../paths.js';

// The engine (store, orchestrator, supervisor) in a process of its own, for the desktop app: the
// Electron main process keeps the window, menus and IPC, an engine crash never takes the window down,
// and the engine runs on a Node whose ABI its native modules were built for (see electron/engine-launch.ts).
// Calls cross the child's IPC channel as { id, name, request } and come back as the IPC transport's
// outcomes ({ ok, value } | { ok, error }), so errors keep their code; events are forwarded as they
// are. engine-child.ts is the other half. JSON serialization: the two sides may be different V8s.

/** To the engine process. */
export type ToEngineProcess = { type: 'call'; id: number; name: string; request: unknown } | { type: 'close' };

/** From the engine process. `fatal`: the engine could not start (e.g. the database would not open). */
export type FromEngineProcess =
  | { type: 'answer'; id: number; outcome: IpcOutcome }
  | { type: 'event'; event: EngineEvent }
  | { type: 'fatal'; error: { code: string; message: string } };

/** What engine-child.js reads from its last argument. */
export interface EngineChildOptions {
  dbPath?: string;
  /** An installed package: better-sqlite3 was rebuilt for Electron in place (native-binding.ts). */
  packaged?: boolean;
}

export interface EngineProcessOptions extends EngineChildOptions {
  /** The program that runs the entry: a Node binary, or Electron's with ELECTRON_RUN_AS_NODE=1 in env. */
  command?: string;
  env?: NodeJS.ProcessEnv;
  /** How long close() waits for the engine to stop its servers and exit before killing it. */
  closeTimeoutMs?: number;
  /** The compiled entry; tests point it elsewhere to exercise a dying engine. */
  entry?: string;
}

export interface EngineProcess extends EngineApiSurface {
  /** Cancels the active run, stops its servers, closes the store and ends the process. */
  close(): Promise<void>;
  /** False once the process has exited (after close(), or because it died). */
  isAlive(): boolean;
  /** The engine process's id (undefined when it could not be started). */
  readonly pid: number | undefined;
  /** Settles with the reason when the engine dies other than through close() (start failure, crash). */
  readonly failure: Promise<LoadscopeError>;
}

const DEFAULT_CLOSE_TIMEOUT_MS = 20_000;

type Pending = { resolve: (value: unknown) => void; reject: (err: unknown) => void };

export function engineChildEntry(): string {
  return distPath('engine/host/engine-child.ts');
}

export function startEngineProcess(options: EngineProcessOptions = {}): EngineProcess {
  const childOptions: EngineChildOptions = { dbPath: options.dbPath, packaged: options.packaged };
  const child = spawn(options.command ?? process.execPath, [options.entry ?? engineChildEntry(), JSON.stringify(childOptions)], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'json',
    // Its own process group: a Ctrl-C in the terminal reaches the app, which closes the engine in
    // order; the engine ends by itself when its parent is gone (the IPC channel disconnects).
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  const bus = new EventBus();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let alive = true;
  let closing: Promise<void> | undefined;
  /** Why calls fail from now on: set when the engine is closing or gone. */
  let refusal: LoadscopeError | undefined;
  /** The engine's own reason for dying (a start failure, a spawn failure), kept for the message. */
  let cause: { code: ErrorCode; message: string; atStart: boolean } | undefined;
  let reportFailure: (err: LoadscopeError) => void = () => undefined;
  const failure = new Promise<LoadscopeError>((resolve) => (reportFailure = resolve));

  let markExited: (code: number | null) => void = () => undefined;
  const exited = new Promise<number | null>((resolve) => (markExited = resolve));
  function onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (!alive) return;
    alive = false;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const unexpected = cause?.atStart
      ? new LoadscopeError(cause.code, `the engine could not start: ${cause.message}`)
      : new LoadscopeError(cause?.code ?? 'LS_ERR_INTERNAL', `the engine process stopped unexpectedly (${how})${cause ? `: ${cause.message}` : ''}`);
    if (!refusal) reportFailure(unexpected);
    refusal ??= unexpected;
    for (const call of pending.values()) call.reject(refusal);
    pending.clear();
    markExited(code);
  }
  // 'close', not 'exit': it comes after the last message (a 'fatal' may still be on its way at 'exit')
  child.once('close', onExit);
  child.on('error', (err) => {
    // spawn failed (no such program): 'exit' never comes
    cause ??= { code: 'LS_ERR_INTERNAL', message: `cannot run ${options.command ?? process.execPath}: ${err.message}`, atStart: true };
    if (child.pid === undefined) onExit(null, null);
  });
  child.on('message', (msg: FromEngineProcess) => {
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

  function post(message: ToEngineProcess): void {
    if (child.connected) child.send(message);
  }

  /** A call's raw request to the engine process, whose dispatchCall parses it: the one check of a desktop call. */
  function forward(name: CallName, request: unknown): Promise<unknown> {
    if (refusal) return Promise.reject(refusal);
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      post({ type: 'call', id, name, request });
    });
  }

  // One forwarder per name in the contract's call list; the engine answers with engine.handlers[name]'s
  // own result (CallResponse<N>), and the client parses every response against the contract.
  const handlers = Object.fromEntries(CALL_NAMES.map((name) => [name, (request: unknown) => forward(name as CallName, request)])) as EngineHandlers;

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
      console.error(`loadscope: the engine did not close within ${timeoutMs} ms; killing its process`);
      child.kill('SIGKILL');
      await exited;
    }
  }

  return {
    handlers,
    forward,
    subscribe: (listener) => bus.subscribe(listener),
    close: () => (closing ??= close()),
    isAlive: () => alive,
    pid: child.pid,
    failure,
  };
}
