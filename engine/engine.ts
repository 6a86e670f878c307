import type { EngineEvent, EngineHandlers } from '../contract/api.js';
import { LoadscopeError } from '../contract/errors.js';
import { openStore, type Store, type StoreOptions } from '../db/store.js';
import { defaultDbPath } from './db-path.js';
import { EventBus } from './event-bus.js';
import { exportCompare, exportRun } from './export/export-run.js';
import { compareData } from './export/compare-data.js';
import { libraryHandlers } from './library/library-calls.js';
import { Orchestrator } from './run/orchestrator.js';
import { prepareRun, validateText, type RunOptions, type StartSource } from './run/prepare-run.js';

/** The engine as every host sees it: the contract's handlers, its events, and an orderly close. */
export interface Engine {
  handlers: EngineHandlers;
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /** Resolves when a run finishes (for hosts that start a run and wait, like the CLI). */
  waitForRun(runId: number): Promise<void>;
  /** Cancels the active run (storing `reason`), stops its servers, closes the store. */
  close(reason?: string): Promise<void>;
  readonly store: Store;
  /** Like runs:start, with consent given in-process (the CLI reads files itself and sends their text). */
  startRun(source: StartSource, opts: RunOptions): Promise<{ runId: number }>;
}

/** `nativeBinding`: the better-sqlite3 binary for this runtime (the desktop engine process chooses it). */
export function createEngine(options: { dbPath?: string; nativeBinding?: string; store?: StoreOptions } = {}): Engine {
  const store = openStore(defaultDbPath(options.dbPath), { ...options.store, nativeBinding: options.nativeBinding });
  const bus = new EventBus();
  const orchestrator = new Orchestrator(store, (event) => bus.emit(event));
  const running = new Map<number, Promise<unknown>>();

  const startRun = async (source: StartSource, opts: RunOptions): Promise<{ runId: number }> => {
    const { runId, done } = orchestrator.start(prepareRun(store, source, opts));
    running.set(runId, done);
    void done.finally(() => running.delete(runId));
    return { runId };
  };

  const handlers: EngineHandlers = {
    ...libraryHandlers(store),
    'scenarios:validate': async ({ text, quick }) => validateText(text, quick),
    // A name is a built-in or a library scenario (engine/library/lookup.ts), never a host path.
    'runs:start': async ({ scenario, quick, set, allowRemote, allowCommands }) =>
      startRun(scenario, { quick, set, consent: { allowRemote: allowRemote ?? false, allowCommands: allowCommands ?? false } }),
    'runs:cancel': async ({ runId, reason }) => ({ cancelled: orchestrator.cancel(runId, reason) }),
    'runs:list': async (filter) => store.listRuns(filter),
    'runs:get': async ({ runId }) => store.getRun(runId),
    'runs:windows': async ({ runId }) => store.getWindows(runId),
    'runs:requests': async ({ runId, targetId, limit }) => store.getRequests(runId, targetId, limit),
    'runs:compare': async ({ runIds }) => compareData(store, runIds),
    'runs:delete': async ({ runId }) => {
      if (orchestrator.activeRunId === runId) {
        throw new LoadscopeError('LS_ERR_RUN_ACTIVE', `run ${runId} is still running; cancel it before deleting it`);
      }
      return { deleted: store.deleteRun(runId) };
    },
    'runs:export': async ({ runId, format }) => exportRun(store, runId, format),
    'runs:exportCompare': async ({ runIds, format }) => exportCompare(store, runIds, format),
  };

  let closed = false;
  return {
    handlers,
    store,
    startRun,
    subscribe: (listener) => bus.subscribe(listener),
    waitForRun: async (runId) => {
      await running.get(runId);
    },
    close: async (reason?: string) => {
      if (closed) return;
      closed = true;
      await orchestrator.shutdown(reason);
      store.close();
    },
  };
}
