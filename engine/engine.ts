import type { EngineEvent, EngineHandlers } from '../contract/api.js';
import { LoadscopeError } from '../contract/errors.js';
import { openStore, type Store } from '../db/store.js';
import { defaultDbPath } from './db-path.js';
import { EventBus } from './event-bus.js';
import { exportCompare, exportRun } from './export/export-run.js';
import { compareData } from './export/compare-data.js';
import { Orchestrator } from './run/orchestrator.js';
import { prepareRun, validateText } from './run/prepare-run.js';
import { listBuiltinScenarios, readBuiltinScenarioText } from './scenario/builtin.js';

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

/** `nativeBinding`: the better-sqlite3 binary for this runtime (the desktop engine process chooses it). */
export function createEngine(options: { dbPath?: string; nativeBinding?: string } = {}): Engine {
  const store = openStore(defaultDbPath(options.dbPath), { nativeBinding: options.nativeBinding });
  const bus = new EventBus();
  const orchestrator = new Orchestrator(store, (event) => bus.emit(event));
  const running = new Map<number, Promise<unknown>>();

  const handlers: EngineHandlers = {
    'scenarios:list': async () => listBuiltinScenarios(),
    'scenarios:get': async ({ name }) => ({ name, text: readBuiltinScenarioText(name) }),
    'scenarios:validate': async ({ text }) => validateText(text),
    'runs:start': async ({ scenario, quick, set }) => {
      const prepared = prepareRun('name' in scenario ? { name: scenario.name } : { text: scenario.text }, { quick, set });
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
