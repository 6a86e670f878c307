import { z } from 'zod';
import { Baseline, BaselineProfile } from './baselines.js';
import { RatioInterval } from './compare.js';
import { DifferenceFinding } from './compare-explanation.js';
import { Diagnosis } from './diagnosis.js';
import {
  CellInfo,
  LiveWindow,
  PhaseHistograms,
  RequestPoint,
  RunEngine,
  RunListItem,
  RunStatus,
  RunSummary,
  ServerSample,
  StoredWindows,
} from './results.js';
import { CorrelateChoice, ImportedJourney } from './imported-journey.js';
import { MAX_RUN_INSTANCES } from './instances.js';
import { KeptFile, KeptFileRefs } from './kept-files.js';
import { libraryCalls } from './library.js';
import { recordCalls, recordEvents } from './record.js';
import { Scenario } from './scenario.js';
import { SlowestGroup, SlowestRequest } from './slowest.js';
import { ThresholdResult } from './thresholds.js';
import { TimelinePlan } from './timeline.js';
import { tryCalls } from './try-once.js';
import { MAX_DESCRIPTION_BYTES, MAX_HAR_BYTES, uploadRoom } from './upload-limits.js';
import { Trend, TrendRequest } from './trends.js';

// The one API contract between the UI and the engine. Both hosts use it: Electron (ipcMain /
// ipcRenderer through the preload) and the browser host (HTTP POST /api/<call> + a WebSocket for
// events). Every call has a request schema (parsed by the host before the engine sees it) and a
// response schema (parsed by the client, so the UI never trusts a shape it did not check). Events
// likewise. Nothing here imports Node or the DOM.

const RunId = z.strictObject({ runId: z.number().int().positive() });
/** Limits of a run's user-given name and note (characters). */
export const RUN_NAME_MAX = 200;
export const RUN_NOTE_MAX = 4000;

export const ScenarioListItem = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  source: z.enum(['builtin', 'file', 'library']),
  servers: z.array(z.string()),
  phases: z.number(),
  cells: z.number(),
  /** library scenarios: their id, latest version and when it was saved */
  id: z.number().optional(),
  version: z.number().optional(),
  updatedAt: z.string().optional(),
  /** set when the scenario does not validate (listed rather than hidden) */
  error: z.string().optional(),
  /** what its quick profile shortens ("phases 10 s -> 2 s, 3 servers -> 1"); null or absent: it has none, so it runs full */
  quickProfile: z.string().nullable().optional(),
});
export type ScenarioListItem = z.infer<typeof ScenarioListItem>;

export const ValidationResult = z.discriminatedUnion('ok', [
  /** `scenario`: as the engine will run it (defaults filled, the quick profile applied when asked), so the UI never re-derives sizes */
  z.object({
    ok: z.literal(true),
    scenario: Scenario,
    cells: z.array(CellInfo),
    /** plan.quick: the quick profile was applied (asked, and the scenario has one) */
    plan: TimelinePlan,
    /** what the scenario's quick profile shortens ("phases 10 s -> 2 s, 3 servers -> 1"), whatever was asked; null: it has none (quick changes nothing) */
    quickProfile: z.string().nullable().default(null),
  }),
  z.object({
    ok: z.literal(false),
    issues: z.array(z.object({ path: z.string(), message: z.string(), line: z.number().optional(), column: z.number().optional() })),
  }),
]);
export type ValidationResult = z.infer<typeof ValidationResult>;

export const CompareResult = z.object({
  runs: z.array(RunSummary),
  histograms: z.array(PhaseHistograms.extend({ runId: z.number() })),
  /** 95 % bootstrap intervals of each paired ratio (contract/compare.ts); a ratio is coloured only when its interval excludes 1 */
  intervals: z.array(RatioInterval).default([]),
  /** how the runs' scenarios differ from A's; empty when they ran the same scenario the same way */
  differences: z.array(z.string()).default([]),
  /** what moved between the first run and each other, and what moved with it (contract/compare-explanation.ts) */
  explanation: z.array(DifferenceFinding).default([]),
});
export type CompareResult = z.infer<typeof CompareResult>;

export const ExportResult = z.object({ fileName: z.string(), mimeType: z.string(), base64: z.string() });
export type ExportResult = z.infer<typeof ExportResult>;

/** csv: one row per request; csv-summary: one row per server run and phase; png: the one-page summary; html: the self-contained report */
export const ExportFormat = z.enum(['csv', 'csv-summary', 'png', 'html']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const calls = {
  'scenarios:list': { request: z.strictObject({}), response: z.array(ScenarioListItem) },
  'scenarios:get': {
    request: z.strictObject({ name: z.string().min(1) }),
    response: z.object({
      name: z.string(),
      text: z.string(),
      source: z.enum(['builtin', 'library']).optional(),
      /** library scenarios */
      id: z.number().optional(),
      version: z.number().optional(),
      /** library scenarios: the data files kept with this version */
      files: z.array(KeptFile).optional(),
    }),
  },
  /** quick: check (and plan) the scenario as `--quick` would run it; files (a library draft's kept files): its data read from them, each relative path one of them */
  'scenarios:validate': { request: z.strictObject({ text: z.string(), quick: z.boolean().default(false), files: KeptFileRefs.optional() }), response: ValidationResult },
  'runs:start': {
    request: z.strictObject({
      /** a built-in or library name, the scenario's JSON text (the editor, an opened file), or a stored run's scenario to run again */
      scenario: z.union([
        z.strictObject({ name: z.string().min(1) }),
        /** files: the library draft's kept data files (its relative data paths name them) */
        z.strictObject({ text: z.string().min(1), origin: z.string().max(1000).optional(), files: KeptFileRefs.optional() }),
        z.strictObject({ runId: z.number().int().positive() }),
      ]),
      quick: z.boolean().default(false),
      set: z.record(z.string(), z.string()).default({}),
      /** who sends the load: Loadscope's driver (absent), or a local k6 (see k6:status) */
      engine: RunEngine.optional(),
      /** engine k6: this many k6 processes at once, each with its execution segment (contract/instances.ts) */
      instances: z.number().int().min(1).max(MAX_RUN_INSTANCES).optional(),
      /** the person confirmed load outside this machine (the UI names the host first) */
      allowRemote: z.boolean().optional(),
      /** the person confirmed running the scenario's external commands (the UI shows argv and cwd first) */
      allowCommands: z.boolean().optional(),
      /** the person confirmed reading files outside the scenario's folder (the UI lists them first) */
      allowFiles: z.boolean().optional(),
    }),
    response: z.object({ runId: z.number() }),
  },
  ...libraryCalls,
  ...tryCalls,
  ...recordCalls,
  /** The editor's "Paste a curl command" (issue 28): the request added to a phase of the scenario text, parsed by the engine */
  'requests:add-curl': {
    request: z.strictObject({
      text: z.string().max(2 * 1024 * 1024),
      command: z.string().min(1).max(256 * 1024),
      phase: z.number().int().min(0).default(0),
      keepSecrets: z.boolean().default(false),
    }),
    response: z.object({ text: z.string(), name: z.string(), notes: z.array(z.string()) }),
  },
  /**
   * The Scenarios view's HAR import and Paste curl's "start a new scenario" (issue 39): a journey
   * made by the engine, with its correlation proposals. keep: the credentials it moved out kept as an
   * editor's upload is (`files`: the draft keeps them); false: a preview, nothing kept.
   */
  'requests:import-har': {
    request: z.strictObject({ text: z.string().min(1).max(uploadRoom(MAX_HAR_BYTES)), name: z.string().min(1).max(255), correlate: CorrelateChoice.default('all'), keep: z.boolean().default(false) }),
    response: ImportedJourney,
  },
  'requests:import-curl': {
    request: z.strictObject({ command: z.string().min(1).max(256 * 1024), keep: z.boolean().default(false) }),
    response: ImportedJourney,
  },
  /**
   * The Scenarios view's "Import API description" (issue 39): an OpenAPI 3 description (JSON or YAML)
   * or a Postman collection v2.1 as a scenario, made by the engine (engine/import-requests/); its data
   * file (examples, credentials) kept as an editor upload is (library:upload-data): the draft keeps
   * `files`, and a save keeps them with the library scenario, whose data entry names each by its name.
   */
  'requests:import-description': {
    request: z.strictObject({
      text: z.string().max(uploadRoom(MAX_DESCRIPTION_BYTES)),
      /** the file's name: names it in notes and errors */
      source: z.string().min(1).max(1000),
      /** the server to send to instead of the description's */
      baseUrl: z.string().max(2000).optional(),
    }),
    response: z.object({ text: z.string(), notes: z.array(z.string()), files: z.array(KeptFile) }),
  },
  /** Is a k6 binary available for runs with engine 'k6', and if not, how to install it. */
  'k6:status': {
    request: z.strictObject({}),
    response: z.object({ available: z.boolean(), version: z.string().nullable(), hint: z.string().nullable() }),
  },
  /** k6 result files (JSON/NDJSON or CSV, gzipped or not) stored as one run; several files merge. */
  'runs:import-k6': {
    request: z.strictObject({
      files: z.array(z.strictObject({ name: z.string().min(1).max(255), base64: z.string().max(150_000_000) })).min(1).max(64),
    }),
    response: z.object({ runId: z.number(), requests: z.number(), dropped: z.number(), note: z.string() }),
  },
  'runs:cancel': {
    request: RunId.extend({ reason: z.string().max(200).optional().describe('stored as the run\'s reason, e.g. "cancelled by SIGTERM"') }),
    response: z.object({ cancelled: z.boolean() }),
  },
  'runs:list': {
    request: z.strictObject({ text: z.string().optional(), status: RunStatus.optional(), limit: z.number().int().min(1).max(10_000).default(500) }),
    response: z.array(RunListItem),
  },
  'runs:get': { request: RunId, response: RunSummary },
  'runs:windows': { request: RunId, response: StoredWindows },
  /** what limited a stored run (issue 38): findings, what it cannot answer, or healthy (engine/diagnosis/) */
  'runs:diagnosis': { request: RunId, response: Diagnosis },
  'runs:requests': {
    request: z.strictObject({ runId: z.number().int().positive(), targetId: z.number().int().positive(), limit: z.number().int().min(1).max(200_000).default(20_000) }),
    response: z.object({ points: z.array(RequestPoint), total: z.number(), sampled: z.boolean() }),
  },
  /** the slowest stored requests of each server run and phase, with their trace ids (contract/slowest.ts) */
  'runs:slowest': { request: SlowestRequest, response: z.array(SlowestGroup) },
  'runs:compare': {
    request: z.strictObject({ runIds: z.array(z.number().int().positive()).min(1).max(16) }),
    response: CompareResult,
  },
  'runs:delete': { request: RunId, response: z.object({ deleted: z.boolean() }) },
  /** names a run and/or gives it a note; null or blank clears it, an absent field is left as it is */
  'runs:annotate': {
    request: RunId.extend({
      name: z.string().max(RUN_NAME_MAX).nullable().optional(),
      note: z.string().max(RUN_NOTE_MAX).nullable().optional(),
    }),
    response: z.object({ name: z.string().nullable(), note: z.string().nullable() }),
  },
  /** pinned baselines (issue 27): every one, or one scenario's (its quick and full profiles) */
  'baselines:list': { request: z.strictObject({ scenarioName: z.string().min(1).optional() }), response: z.array(Baseline) },
  /** pins a completed run as the baseline of its scenario and profile, replacing the one before */
  'baselines:set': { request: RunId, response: Baseline },
  /** unpins a scenario's baseline (one profile, or both); without a scenario, every baseline */
  'baselines:clear': {
    request: z.strictObject({ scenarioName: z.string().min(1).optional(), profile: BaselineProfile.optional() }),
    response: z.object({ cleared: z.number() }),
  },
  /** a scenario's figures over its last runs, a repeated group as one column with its interval (issue 27) */
  'runs:trend': { request: TrendRequest, response: Trend },
  /** makes these runs, in this order, one group of repeated runs (named by the first run's id) */
  'runs:group': { request: z.strictObject({ runIds: z.array(z.number().int().positive()).min(1).max(50) }), response: z.object({ groupId: z.number() }) },
  'runs:export': {
    request: z.strictObject({ runId: z.number().int().positive(), format: ExportFormat }),
    response: ExportResult,
  },
  /** two or more runs side by side, as one HTML report or the paired table as CSV */
  'runs:exportCompare': {
    request: z.strictObject({ runIds: z.array(z.number().int().positive()).min(2).max(16), format: z.enum(['html', 'csv']) }),
    response: ExportResult,
  },
} as const;

export const events = {
  'run:started': z.object({
    runId: z.number(),
    scenarioName: z.string(),
    title: z.string(),
    cells: z.array(CellInfo),
    totalTargets: z.number(),
    /** the scenario exactly as it runs (quick profile and overrides applied), for the Run page's outline */
    scenario: z.unknown().optional(),
  }),
  'run:target': z.object({
    runId: z.number(),
    targetId: z.number(),
    cellIndex: z.number(),
    serverIndex: z.number(),
    label: z.string(),
    /** 'external' or a bundled one; absent from older engines (contract/server-samples.ts asks it) */
    architecture: z.string().optional(),
    status: z.enum(['running', 'completed', 'failed', 'cancelled', 'skipped']),
    reason: z.string().nullable(),
  }),
  'run:phase': z.object({ runId: z.number(), targetId: z.number(), phaseIndex: z.number(), name: z.string(), state: z.enum(['started', 'ended']), tMs: z.number() }),
  /** a server run's thresholds, checked as its phase results were stored */
  'run:thresholds': z.object({ runId: z.number(), targetId: z.number(), results: z.array(ThresholdResult) }),
  'run:window': LiveWindow,
  'run:sample': ServerSample,
  'run:progress': z.object({ runId: z.number(), elapsedMs: z.number(), remainingMs: z.number().nullable(), requests: z.number(), fraction: z.number() }),
  'run:finished': z.object({ runId: z.number(), status: RunStatus, reason: z.string().nullable() }),
  /** runs another process stored, finished, deleted or annotated (the engine polls the store: engine/watch-runs.ts) */
  'runs:changed': z.object({}),
  ...recordEvents,
  /** From the desktop shell's application menu (never from the engine): the renderer acts on it. */
  'ui:menu': z.object({
    action: z.enum(['open-scenario', 'export', 'run-start', 'run-cancel']),
    /** open-scenario: the file the user picked, and its text (the renderer cannot read files) */
    path: z.string().optional(),
    text: z.string().optional(),
  }),
} as const;

export type CallName = keyof typeof calls;
export type EventName = keyof typeof events;
export type CallRequest<N extends CallName> = z.input<(typeof calls)[N]['request']>;
export type ParsedCallRequest<N extends CallName> = z.output<(typeof calls)[N]['request']>;
export type CallResponse<N extends CallName> = z.output<(typeof calls)[N]['response']>;
/** What the UI sends to start a run (the views build it, the App and the consent retry send it). */
export type StartRequest = CallRequest<'runs:start'>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const CALL_NAMES = Object.keys(calls) as readonly string[];

export function isCallName(name: string): name is CallName {
  return Object.hasOwn(calls, name);
}
export function isEventName(name: string): name is EventName {
  return Object.hasOwn(events, name);
}

/** What the engine implements: one handler per call, taking the parsed request. */
export type EngineHandlers = { [N in CallName]: (request: ParsedCallRequest<N>) => Promise<CallResponse<N>> };

/** An event as it travels (IPC or WebSocket). */
export type EngineEvent = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

/** What the UI sees as `window.loadscope`: a typed invoke and a typed subscription. */
export interface LoadscopeApi {
  invoke<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponse<N>>;
  /** Returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** A stable error code with a message a person can act on; crosses both transports. */
export const ApiError = z.object({ code: z.string(), message: z.string() });
export type ApiError = z.infer<typeof ApiError>;
