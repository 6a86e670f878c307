import type { EngineEvent, EngineHandlers } from '../contract/api.js';
import { LoadscopeError } from '../contract/errors.js';
import { openStore, type Store } from '../db/store.js';
import { defaultDbPath } from './db-path.js';
import { EventBus } from './event-bus.js';
import { exportRun } from './export/export-run.js';
import { libraryHandlers } from './library/library-calls.js';
import { Orchestrator } from './run/orchestrator.js';
import { prepareRun, validateText } from './run/prepare-run.js';

/** The engine as every host sees it: the contract's handlers, its events, and an orderly close. */
export interface Engine {
  handlers: EngineHandlers;
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /** Resolves when a run finishes (for hosts that start a run and wait, like the CLI). */
  waitForRun(runId: number): Promise<void>;
  /** Cancels the active run, stops its servers, closes the store. */
  close(): Promise<void>;
  readonly store: Store;
}

export function createEngine(options: { dbPath?: string } = {}): Engine {
  const store = openStore(defaultDbPath(options.dbPath));
  const bus = new EventBus();
  const orchestrator = new Orchestrator(store, (event) => bus.emit(event));
  const running = new Map<number, Promise<unknown>>();

  const handlers: EngineHandlers = {
    ...libraryHandlers(store),
    'scenarios:validate': async ({ text, quick }) => validateText(text, quick),
    'runs:start': async ({ scenario, quick, set }) => {
      const prepared = prepareRun(store, scenario, { quick, set });
      const { runId, done } = orchestrator.start(prepared);
      running.set(runId, done);
      void done.finally(() => running.delete(runId));
      return { runId };
    },
    'runs:cancel': async ({ runId }) => ({ cancelled: orchestrator.cancel(runId) }),
    'runs:list': async (filter) => store.listRuns(filter),
    'runs:get': async ({ runId }) => store.getRun(runId),
    'runs:windows': async ({ runId }) => store.getWindows(runId),
    'runs:requests': async ({ runId, targetId, limit }) => store.getRequests(runId, targetId, limit),
    'runs:compare': async ({ runIds }) => ({
      runs: runIds.map((id) => store.getRun(id)),
      histograms: runIds.flatMap((runId) => store.getHistograms(runId).map((h) => ({ ...h, runId }))),
    }),
    'runs:delete': async ({ runId }) => {
      if (orchestrator.activeRunId === runId) {
        throw new LoadscopeError('LS_ERR_RUN_ACTIVE', `run ${runId} is still running; cancel it before deleting it`);
      }
      return { deleted: store.deleteRun(runId) };
    },
    'runs:export': async ({ runId, format }) => exportRun(store, runId, format),
  };

  let closed = false;
  return {
    handlers,
    store,
    subscribe: (listener) => bus.subscribe(listener),
    waitForRun: async (runId) => {
      await running.get(runId);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await orchestrator.shutdown();
      store.close();
    },
  };
}
