import { dirname } from 'node:path';
import type { EngineEvent, EngineHandlers } from '../contract/api.js';
import { LoadscopeError } from '../contract/errors.js';
import type { RunEngine } from '../contract/results.js';
import { openStore, type Store, type StoreOptions } from '../db/store.js';
import { defaultDbPath } from './db-path.js';
import { EventBus } from './event-bus.js';
import { lazyCalls } from './lazy-calls.js';
import { watchRuns } from './watch-runs.js';
import type { Orchestrator } from './run/orchestrator.js';
import type { RunOptions, StartSource } from './run/prepare-run.js';

// Only the store is opened eagerly: the orchestrator (driver, supervisor, undici), the scenario
// library (zod schemas), the exporters (ECharts, canvas) and k6 support are imported on first use,
// so verbs that send no load start fast (docs/architecture.md, "Lazy loading").
const LIBRARY_CALLS = ['scenarios:list', 'scenarios:get', 'library:save', 'library:import', 'library:rename', 'library:delete', 'library:versions', 'runs:scenario'] as const;

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

/**
 * `nativeBinding`: the better-sqlite3 binary for this runtime (the desktop engine process chooses it).
 * `watchRuns`: emit 'runs:changed' when another process stores a run (hosts that show History).
 */
export function createEngine(options: { dbPath?: string; nativeBinding?: string; store?: StoreOptions; watchRuns?: boolean } = {}): Engine {
  const dbPath = defaultDbPath(options.dbPath);
  const store = openStore(dbPath, { ...options.store, nativeBinding: options.nativeBinding });
  // beside the database: what the engine keeps for the person outside it (an import's credentials)
  const dataFolder = dirname(dbPath);
  const bus = new EventBus();
  const stopWatching = options.watchRuns ? watchRuns(store, (event) => bus.emit(event)) : () => undefined;
  // A promise, so two calls racing to the first run share one orchestrator.
  let orchestrator: Promise<Orchestrator> | undefined;
  let loaded: Orchestrator | undefined;
  const theOrchestrator = () =>
    (orchestrator ??= import('./run/orchestrator.js').then((m) => (loaded = new m.Orchestrator(store, (event) => bus.emit(event)))));
  const running = new Map<number, Promise<unknown>>();

  const startRun = async (source: StartSource, opts: RunOptions & { engine?: RunEngine }): Promise<{ runId: number }> => {
    const [runner, { prepareRun }, k6] = await Promise.all([
      theOrchestrator(),
      import('./run/prepare-run.js'),
      opts.engine === 'k6' ? import('./k6/with-k6.js') : undefined,
    ]);
    const prepared = prepareRun(store, source, opts);
    const { runId, done } = runner.start(k6 ? k6.withK6(prepared) : prepared);
    running.set(runId, done);
    void done.finally(() => running.delete(runId));
    return { runId };
  };

  const handlers: EngineHandlers = {
    ...lazyCalls(LIBRARY_CALLS, async () => (await import('./library/library-calls.js')).libraryHandlers(store)),
    'scenarios:validate': async ({ text, quick }) => (await import('./run/prepare-run.js')).validateText(text, quick),
    // A name is a built-in or a library scenario (engine/library/lookup.ts), never a host path.
    'runs:start': async ({ scenario, quick, set, allowRemote, allowCommands, allowFiles, engine }) =>
      startRun(scenario, { quick, set, engine, consent: { allowRemote: allowRemote ?? false, allowCommands: allowCommands ?? false, allowFiles: allowFiles ?? false } }),
    // no orchestrator yet: no run was ever started by this engine, so none is active
    'runs:cancel': async ({ runId, reason }) => ({ cancelled: loaded?.cancel(runId, reason) ?? false }),
    'runs:list': async (filter) => store.listRuns(filter),
    'runs:get': async ({ runId }) => store.getRun(runId),
    'runs:windows': async ({ runId }) => store.getWindows(runId),
    // the rules read the run as `runs:get` and `runs:windows` give it, with its first requests (engine/export/stored-diagnosis.ts)
    'runs:diagnosis': async ({ runId }) => (await import('./export/stored-diagnosis.js')).storedDiagnosis(store, runId),
    'runs:requests': async ({ runId, targetId, limit }) => store.getRequests(runId, targetId, limit),
    'runs:slowest': async ({ runId, limit }) => store.getSlowest(runId, limit),
    'runs:compare': async ({ runIds }) => (await import('./export/compare-data.js')).compareData(store, runIds),
    'runs:delete': async ({ runId }) => {
      if (loaded?.activeRunId === runId) {
        throw new LoadscopeError('LS_ERR_RUN_ACTIVE', `run ${runId} is still running; cancel it before deleting it`);
      }
      return { deleted: store.deleteRun(runId) };
    },
    'runs:annotate': async ({ runId, name, note }) => store.annotateRun(runId, { name, note }),
    'runs:group': async ({ runIds }) => ({ groupId: store.groupRuns(runIds) }),
    'baselines:list': async ({ scenarioName }) => store.baselines.all(scenarioName),
    'baselines:set': async ({ runId }) => store.baselines.set(runId),
    'baselines:clear': async ({ scenarioName, profile }) => ({ cleared: store.baselines.clear(scenarioName, profile) }),
    'runs:trend': async (request) => (await import('./export/trend-data.js')).trendData(store, request),
    'runs:export': async ({ runId, format }) => (await import('./export/export-run.js')).exportRun(store, runId, format),
    'runs:exportCompare': async ({ runIds, format }) => (await import('./export/export-run.js')).exportCompare(store, runIds, format),
    'requests:add-curl': async ({ text, command, phase, keepSecrets }) =>
      (await import('./import-requests/add-curl.js')).addCurlToScenario(text, command, phase, { keepSecrets }),
    'requests:import-har': async ({ text, name, correlate, keep }) => (await import('./import-requests/import-call.js')).importHarText(text, name, correlate, keep, dataFolder),
    'requests:import-curl': async ({ command, keep }) => (await import('./import-requests/import-call.js')).importCurlCommand(command, keep, dataFolder),
    'k6:status': async () => {
      const { available, version, hint } = (await import('./k6/k6-binary.js')).k6Status();
      return { available, version, hint };
    },
    'runs:import-k6': async ({ files }) => {
      const { runId, requests, dropped, note } = await (await import('./k6/import/import-upload.js')).importK6Upload(store, files);
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
      stopWatching();
      if (orchestrator) await (await orchestrator).shutdown(reason);
      store.close();
    },
  };
}
