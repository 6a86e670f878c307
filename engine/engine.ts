import type { EngineEvent, EngineHandlers } from '../contract/api.js';
import { LoadscopeError } from '../contract/errors.js';
import type { RunEngine } from '../contract/results.js';
import { openStore, type Store, type StoreOptions } from '../db/store.js';
import { defaultDbPath } from './db-path.js';
import { EventBus } from './event-bus.js';
import { exportCompare, exportRun } from './export/export-run.js';
import { compareData } from './export/compare-data.js';
import { libraryHandlers } from './library/library-calls.js';
import { importK6Upload } from './k6/import/import-upload.js';
import { k6Status } from './k6/k6-binary.js';
import { withK6 } from './k6/with-k6.js';
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
  /** Like runs:start, with consent given in-process (the CLI reads files itself and sends their text).
   *  engine 'k6': a local k6 sends the load (LS_ERR_K6_MISSING where none is installed). */
  startRun(source: StartSource, opts: RunOptions & { engine?: RunEngine }): Promise<{ runId: number }>;
}

/** `nativeBinding`: the better-sqlite3 binary for this runtime (the desktop engine process chooses it). */
export function createEngine(options: { dbPath?: string; nativeBinding?: string; store?: StoreOptions } = {}): Engine {
  const store = openStore(defaultDbPath(options.dbPath), { ...options.store, nativeBinding: options.nativeBinding });
  const bus = new EventBus();
  const orchestrator = new Orchestrator(store, (event) => bus.emit(event));
  const running = new Map<number, Promise<unknown>>();

  const startRun = async (source: StartSource, opts: RunOptions & { engine?: RunEngine }): Promise<{ runId: number }> => {
    const prepared = prepareRun(store, source, opts);
    const { runId, done } = orchestrator.start(opts.engine === 'k6' ? withK6(prepared, store) : prepared);
    running.set(runId, done);
    void done.finally(() => running.delete(runId));
    return { runId };
  };

  const handlers: EngineHandlers = {
    ...libraryHandlers(store),
    'scenarios:validate': async ({ text, quick }) => validateText(text, quick),
    // A name is a built-in or a library scenario (engine/library/lookup.ts), never a host path.
    'runs:start': async ({ scenario, quick, set, allowRemote, allowCommands, engine }) =>
      startRun(scenario, { quick, set, engine, consent: { allowRemote: allowRemote ?? false, allowCommands: allowCommands ?? false } }),
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
    'k6:status': async () => {
      const { available, version, hint } = k6Status();
      return { available, version, hint };
    },
    'runs:import-k6': async ({ files }) => {
      const { runId, requests, dropped, note } = await importK6Upload(store, files);
      return { runId, requests, dropped, note };
    },
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
