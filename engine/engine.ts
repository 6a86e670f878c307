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
import type { RecordSession } from './record/record-session.js';

// Only the store is opened eagerly: the orchestrator (driver, supervisor, undici), the scenario
// library (zod schemas), the exporters (ECharts, canvas) and k6 support are imported on first use,
// so verbs that send no load start fast (docs/architecture.md, "Lazy loading").
const LIBRARY_CALLS = ['scenarios:get', 'library:save', 'library:import', 'library:rename', 'library:delete', 'library:versions', 'runs:scenario', 'library:upload-data', 'library:bundle'] as const;

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
  startRun(source: StartSource, opts: RunOptions & { engine?: RunEngine; instances?: number }): Promise<{ runId: number }>;
}

/**
 * `nativeBinding`: the better-sqlite3 binary for this runtime (the desktop engine process chooses it).
 * `watchRuns`: emit 'runs:changed' when another process stores a run (hosts that show History).
 */
export function createEngine(options: { dbPath?: string; nativeBinding?: string; store?: StoreOptions; watchRuns?: boolean } = {}): Engine {
  const store = openStore(defaultDbPath(options.dbPath), { ...options.store, nativeBinding: options.nativeBinding });
  const bus = new EventBus();
  const stopWatching = options.watchRuns ? watchRuns(store, (event) => bus.emit(event)) : () => undefined;
  // A promise, so two calls racing to the first run share one orchestrator.
  let orchestrator: Promise<Orchestrator> | undefined;
  let loaded: Orchestrator | undefined;
  const theOrchestrator = () =>
    (orchestrator ??= import('./run/orchestrator.js').then((m) => (loaded = new m.Orchestrator(store, (event) => bus.emit(event)))));
  const running = new Map<number, Promise<unknown>>();
  // tries in progress (scenarios:try): a close cancels them and waits until their servers stopped
  const tries = new Map<AbortController, Promise<unknown>>();
  // The browser recording (issue 39): playwright is loaded on the first record:* call only.
  let recorder: Promise<RecordSession> | undefined;
  const theRecorder = () =>
    (recorder ??= Promise.all([import('./record/record-session.js'), import('./record/open-in-chromium.js')]).then(([session, chromium]) =>
      session.recordSession(
        (url, onProgress) => chromium.openInChromium(url, onProgress),
        (event) => bus.emit(event),
        // a recorded journey's credentials kept as the editor's upload is
        async (name, csv) => handlers['library:upload-data']({ name, base64: Buffer.from(csv, 'utf8').toString('base64') }),
      ),
    ));

  const startRun = async (source: StartSource, opts: RunOptions & { engine?: RunEngine; instances?: number }): Promise<{ runId: number }> => {
    const [runner, { prepareRun }, k6] = await Promise.all([
      theOrchestrator(),
      import('./run/prepare-run.js'),
      opts.engine === 'k6' ? import('./k6/with-k6.js') : undefined,
    ]);
    const prepared = prepareRun(store, source, opts);
    if (!k6 && opts.instances !== undefined && opts.instances !== 1) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `instances: ${opts.instances} k6 processes need the k6 engine (--engine k6)`);
    const { runId, done } = runner.start(k6 ? k6.withK6(prepared, opts.instances) : prepared);
    running.set(runId, done);
    void done.finally(() => running.delete(runId));
    return { runId };
  };

  const handlers: EngineHandlers = {
    ...lazyCalls(LIBRARY_CALLS, async () => (await import('./library/library-calls.js')).libraryHandlers(store)),
    // apart: listing needs no scenario schema while the library is empty (engine/library/scenario-list.ts)
    ...lazyCalls(['scenarios:list'], async () => (await import('./library/scenario-list.js')).scenarioListHandlers(store)),
    'scenarios:validate': async ({ text, quick, files }) => (await import('./run/prepare-run.js')).validateWithKept(store, text, quick, files),
    // A name is a built-in or a library scenario (engine/library/lookup.ts), never a host path.
    'runs:start': async ({ scenario, quick, set, allowRemote, allowCommands, allowFiles, engine, instances }) =>
      startRun(scenario, { quick, set, engine, ...(instances !== undefined && { instances }), consent: { allowRemote: allowRemote ?? false, allowCommands: allowCommands ?? false, allowFiles: allowFiles ?? false } }),
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
    // one user through the journey, nothing stored (engine/run/try/)
    'scenarios:try': async (request) => {
      const abort = new AbortController();
      const tried = (async () => (await import('./run/try/try-once.js')).tryOnce(store, request, abort.signal))();
      tries.set(abort, tried);
      return tried.finally(() => tries.delete(abort));
    },
    'requests:add-curl': async ({ text, command, phase, keepSecrets }) =>
      (await import('./import-requests/add-curl.js')).addCurlToScenario(text, command, phase, { keepSecrets }),
    // the credentials it moved out kept as the editor's upload is, once the person keeps the import (a preview keeps nothing)
    'requests:import-har': async ({ text, name, correlate, keep }) => {
      const [{ importHarText, journeyAnswer }, { keepUpload }] = await Promise.all([import('./import-requests/import-call.js'), import('./library/kept-data.js')]);
      return journeyAnswer(importHarText(text, name, correlate), keep, (file, csv) => keepUpload(store.library, file, Buffer.from(csv, 'utf8')));
    },
    'requests:import-curl': async ({ command, keep }) => {
      const [{ importCurlCommand, journeyAnswer }, { keepUpload }] = await Promise.all([import('./import-requests/import-call.js'), import('./library/kept-data.js')]);
      return journeyAnswer(importCurlCommand(command), keep, (file, csv) => keepUpload(store.library, file, Buffer.from(csv, 'utf8')));
    },
    // its data file kept as the editor's upload is: the draft keeps it, a save keeps it with the scenario
    'requests:import-description': async (upload) => {
      const [{ importDescriptionUpload }, { keepUpload }] = await Promise.all([import('./import-requests/description-upload.js'), import('./library/kept-data.js')]);
      const { text, notes, files } = await importDescriptionUpload(upload);
      return { text, notes, files: files.map((f) => keepUpload(store.library, f.name, Buffer.from(f.text, 'utf8'))) };
    },
    'record:start': async (request) => (await theRecorder()).handlers['record:start'](request),
    'record:stop': async (request) => (await theRecorder()).handlers['record:stop'](request),
    'record:correlate': async (request) => (await theRecorder()).handlers['record:correlate'](request),
    'record:cancel': async (request) => (await theRecorder()).handlers['record:cancel'](request),
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
      for (const abort of tries.keys()) abort.abort();
      await Promise.allSettled(tries.values());
      if (recorder) await (await recorder).close();
      if (orchestrator) await (await orchestrator).shutdown(reason);
      store.close();
    },
  };
}
