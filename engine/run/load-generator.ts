// What a load generator is and what it is given: its own file, so the generators (driver, capacity,
// k6) and run-target.ts, which picks one of them, depend on these types without depending on each other.
import type { EngineEvent } from '../../contract/api.js';
import type { HistogramSet } from '../../contract/measurement.js';
import type { Protocol } from '../../contract/protocol.js';
import type { InstanceFacts } from '../../contract/instances.js';
import type { PhaseResult } from '../../contract/results.js';
import type { Scenario, ServerSpec } from '../../contract/scenario.js';
import type { DataSet } from '../../contract/variables.js';
import type { Store, WindowInput } from '../../db/store.js';

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
  /** the server run's trace prefix, stored with it (trace-prefix.ts): absent when no phase sends traceparent */
  tracePrefix?: string;
}

/** Sends one server run's load and stores its phases and raw rows (through `writes`). */
export type LoadGenerator = (g: GeneratorContext) => Promise<GeneratorResult>;

/**
 * What a load generator may store for its server run, and the only way it reaches the store: each
 * goes through the server run's guard (run-target.ts). Rows and windows stop at the first write that
 * fails, which ends the server run keeping what was stored; a phase's figures and the engine note are
 * still tried after it (a full disk's reserve has room for them).
 */
export interface GeneratorWrites {
  rows(rows: Float64Array, count: number): void;
  windows(batch: readonly WindowInput[]): void;
  phase(result: PhaseResult, histograms: HistogramSet): void;
  /** replaces the run's engine note (a k6 run learns what it dropped only at its end) */
  engineNote(note: string | null): void;
  /** what the load spoke to the target (contract/protocol.ts: h1, h1-tls, h2, h2c), learnt as it started */
  protocol(protocol: Protocol | null): void;
  /** the k6 instances that sent its load (contract/instances.ts), learnt at its end */
  instances(instances: readonly InstanceFacts[]): void;
}

export interface GeneratorContext {
  /** the server run, without its store: writes go through `writes` */
  ctx: Omit<TargetContext, 'store'>;
  /** the running server's base URL */
  url: string;
  /** a bundled server over TLS: its self-signed certificate (PEM), trusted for it alone */
  cert?: string;
  /** aborted when the run is cancelled, the server dies or the store stops taking writes */
  signal: AbortSignal;
  /** the epoch ms of the load's t0: server samples are timed from it */
  setT0(epochMs: number): void;
  writes: GeneratorWrites;
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
