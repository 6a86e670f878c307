import type { HistogramSet } from '../../contract/measurement.js';
import type { Protocol } from '../../contract/protocol.js';
import type { ClientProtocol } from '../../contract/protocol.js';
import type { Phase } from '../../contract/scenario.js';
import type { EndpointWindow, ErrorCounts, PhaseResult, StreamWindow, WindowLatency } from '../../contract/results.js';
import type { LatencyBuckets } from '../../contract/latency-buckets.js';
import type { RawRowBatch } from './measure/raw-rows.js';
import type { DataSet } from './requests/phase-inputs.js';
import type { AdmissionWait } from './admission.js';

/** A live window's length when the plan does not say (ms). */
export const DEFAULT_WINDOW_MS = 250;

/** What the driver runs: phases already validated (defaults filled) against a loopback base URL. */
export interface DriverPlan {
  /** http://127.0.0.1:PORT (loopback only) */
  baseUrl: string;
  phases: Phase[];
  /** live window length, ms (default DEFAULT_WINDOW_MS) */
  windowMs?: number;
  /** the listener lends each row batch back (DriverListener.rowsLent): the worker writes into returned batches */
  rowsLent?: boolean;
  /** the person consented to load outside this machine (default false: refused at connect time) */
  allowRemote?: boolean;
  /** more phases may be appended as phases end (a capacity search): the run ends on 'close' */
  open?: boolean;
  /**
   * An open plan's time bound (ms after t0): an appended phase starts only when its planned length
   * ends by then, judged at its real start; otherwise the plan closes instead.
   */
  appendUntilMs?: number;
  /** the scenario's data files as read, by name; a phase's `data` names one */
  data?: DataSet[];
  /** an https:// baseUrl: how its certificate is checked (absent: against the system's CAs) */
  tls?: DriverTls;
  /** what to speak (default h1): h2 by ALPN over https, h2c by prior knowledge over http */
  protocol?: ClientProtocol;
  /** h2 / h2c: requests in flight per connection (default 1) */
  streams?: number;
  /**
   * A bundled target's listening port: after opening connections ahead, t0 waits (bounded) until
   * nothing waits in its accept queue (admission.ts). Absent: no wait (an external target's queue
   * may be a proxy's, or not on this machine).
   */
  admissionPort?: number;
  /** the server run's trace prefix (16 hex, contract/trace-context.ts): a phase with traceparent sends it; absent, no phase traces */
  tracePrefix?: string;
}

/** TLS towards the target, its files already read (PEM text). */
export interface DriverTls {
  /** do not verify the certificate */
  insecure: boolean;
  /** trusted instead of the system's CAs (a bundled server's own self-signed certificate, or tls.ca) */
  ca?: string;
  /** the client certificate and its key */
  cert?: string;
  key?: string;
  servername?: string;
}

export interface PhaseEvent {
  phaseIndex: number;
  /** ms from t0 (the scheduled start for a phase with `at`) */
  tMs: number;
}

/** One live window of one phase (every phase active during the window gets one). */
export interface DriverWindow {
  /** ms from t0, end of the window */
  tMs: number;
  phaseIndex: number;
  /** requests completed in the window */
  count: number;
  /** completions per second over the window */
  throughput: number;
  errors: ErrorCounts;
  /** requests dispatched and not done at the end of the window */
  inFlight: number;
  /** requests waiting at the client (open loop: maxInFlight reached) at the end of the window */
  queued: number;
  total: WindowLatency | null;
  wait: WindowLatency | null;
  processing: WindowLatency | null;
  ttfb: WindowLatency | null;
  transfer: WindowLatency | null;
  /** total times per heatmap bucket (contract/latency-buckets.ts) */
  totalBuckets: LatencyBuckets;
  /** the generator's own CPU over the window, 100 = one core (measure/own-cpu.ts); null before t0 */
  ownCpu?: number | null;
  /** its streams' messages (issue 41); absent: none in the window */
  stream?: StreamWindow;
  /** a phase of two or more requests: the window per endpoint, bounded (measure/endpoint-windows.ts); live only */
  endpoints?: EndpointWindow[];
}

/** Encoded HDR histograms: the measurement module's set. */
export type EncodedHistograms = HistogramSet;

export interface DriverPhaseResult {
  result: PhaseResult;
  histograms: EncodedHistograms;
  /** the phase was stopped by its deadline (contract/phase.ts phaseDeadlineMs: its last send + timeoutMs, or maxDurationMs) */
  hitDeadline: boolean;
  /** why the phase ended before its plan did (its unique data ran out), one line; absent otherwise */
  note?: string;
}

export interface PhaseEndEvent extends PhaseEvent {
  result: DriverPhaseResult;
}

export interface DriverResult {
  cancelled: boolean;
  /** wall-clock time of t0 (performance.timeOrigin-based), to align with other samples */
  t0EpochMs: number;
  /** ms from t0 to the end of the last phase */
  durationMs: number;
  /** phases that started, by index order */
  phases: DriverPhaseResult[];
  /** set when the worker thread died mid-run: what happened and when (phases hold what ended before) */
  failure?: string;
  /** what the target spoke, learnt before the load (contract/protocol.ts); null: it did not answer */
  protocol?: Protocol | null;
}

export interface DriverListener {
  /** admission: what the wait before t0 for the target's accept queue found (absent: no wait) */
  onStart?(e: { t0EpochMs: number; admission?: AdmissionWait }): void;
  onPhaseStart?(e: PhaseEvent): void;
  onPhaseEnd?(e: PhaseEndEvent): void;
  onWindow?(w: DriverWindow): void;
  /** rows transferred from the worker: the listener owns the batch (unless rowsLent) */
  onRows?(batch: RawRowBatch): void;
  /**
   * true: onRows is done with a batch when it returns (it stores it synchronously), so the batch goes
   * back to the worker to be filled again. Without it each batch is new memory, freed only when the
   * main thread collects garbage, which it seldom does (about 1 MB per 10,000 requests piled up).
   */
  rowsLent?: boolean;
  /**
   * With a plan that is `open`: called as each phase ends, answers the phase to run next (appended
   * after it, on the same t0) or null to end the run. Not called after a cancel.
   */
  nextPhase?(e: PhaseEndEvent): Phase | null;
}

/** parent -> worker */
export type ToWorkerMessage = { type: 'cancel' } | { type: 'append'; phase: Phase } | { type: 'close' } | { type: 'rows-back'; rows: Float64Array };

/** worker -> parent */
export type FromWorkerMessage =
  | { type: 'started'; t0EpochMs: number; admission?: AdmissionWait }
  | { type: 'phase-start'; phaseIndex: number; tMs: number }
  | { type: 'phase-end'; phaseIndex: number; tMs: number; result: DriverPhaseResult }
  | { type: 'window'; window: DriverWindow }
  | { type: 'rows'; rows: Float64Array; count: number }
  | { type: 'done'; result: DriverResult }
  | { type: 'error'; code: string; message: string };
