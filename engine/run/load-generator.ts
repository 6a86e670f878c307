// What a load generator is and what it is given: its own file, so the generators (driver, capacity,
// k6) and run-target.ts, which picks one of them, depend on these types without depending on each other.
import type { EngineEvent } from '../../contract/api.js';
import type { PhaseResult } from '../../contract/results.js';
import type { Scenario, ServerSpec } from '../../contract/scenario.js';
import type { DataSet } from '../../contract/variables.js';
import type { Store } from '../../db/store.js';

export interface TargetContext {
  store: Store;
  emit: (event: EngineEvent) => void;
  runId: number;
  targetId: number;
  scenario: Scenario;
  cellIndex: number;
  server: ServerSpec;
  signal: AbortSignal;
  /** the person consented to load outside this machine */
  allowRemote?: boolean;
  /** what sends the load once the server is up; default: the native driver */
  generator?: LoadGenerator;
  /** the scenario's data files as read at the run's start (engine/scenario/data-files.ts) */
  data?: DataSet[];
}

/** Sends one server run's load and stores its phases and raw rows (through `write`). */
export type LoadGenerator = (g: GeneratorContext) => Promise<GeneratorResult>;

export interface GeneratorContext {
  ctx: TargetContext;
  /** the running server's base URL */
  url: string;
  /** aborted when the run is cancelled, the server dies or the store stops taking writes */
  signal: AbortSignal;
  /** the epoch ms of the load's t0: server samples are timed from it */
  setT0(epochMs: number): void;
  /** every store write goes through here: a failing store ends the server run, keeping what was stored */
  write(action: () => void): void;
  /** a phase's figures: tried even after the store stopped taking rows (a full disk's reserve has room for them) */
  keep(action: () => void): void;
  /** called with each phase's result as it ends: checks the scenario's thresholds against it */
  phaseEnded(result: PhaseResult): void;
}

export interface GeneratorResult {
  requests: number;
  phases: PhaseResult[];
  /** why the load generator itself failed, if it did */
  failure: string | null;
}

export interface TargetOutcome {
  status: 'completed' | 'failed' | 'cancelled' | 'skipped';
  reason: string | null;
  phases: PhaseResult[];
  requests: number;
  /** the store stopped taking writes (a full disk): the run cannot go on to another server */
  storeFailed: boolean;
}
