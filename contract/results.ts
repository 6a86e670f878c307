import { z } from 'zod';
import { ERROR_KINDS, MAX_ERROR_REASONS } from './error-kinds.js';
import { PROTOCOLS } from './protocol.js';
import { ThresholdResult, ThresholdTally } from './thresholds.js';
import { RegressionTally, RunVerdict } from './run-verdict.js';
import { LIVE_ENDPOINTS } from './live-endpoints.js';

// What a run produces, as the engine reports it and the store gives it back. Times in ms unless a
// name says otherwise. The derived times (total, wait, processing, server wait, lag) are defined
// once, in contract/measurement.ts, and named the same everywhere (engine, db, UI, CSV).

export { ERROR_KINDS, MAX_ERROR_REASONS, MAX_REASON_CHARS } from './error-kinds.js';
export const ErrorKind = z.enum(ERROR_KINDS);
export type ErrorKind = z.infer<typeof ErrorKind>;
export const ErrorCounts = z.partialRecord(ErrorKind, z.number());
export type ErrorCounts = Partial<Record<ErrorKind, number>>;

export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled', 'interrupted'] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

/** The load generator of a run: Loadscope's own driver, or k6 (run locally or imported from its files). */
export const RUN_ENGINES = ['native', 'k6'] as const;
export const RunEngine = z.enum(RUN_ENGINES);
export type RunEngine = z.infer<typeof RunEngine>;

export const LatencyStats = z.object({
  count: z.number(),
  mean: z.number(),
  min: z.number(),
  max: z.number(),
  stddev: z.number(),
  p50: z.number(),
  p66: z.number(),
  p75: z.number(),
  p80: z.number(),
  p90: z.number(),
  p95: z.number(),
  p98: z.number(),
  p99: z.number(),
  p999: z.number(),
});
export type LatencyStats = z.infer<typeof LatencyStats>;

/** The short form sent in live windows. */
export const WindowLatency = z.object({ mean: z.number(), p50: z.number(), p90: z.number(), p99: z.number(), max: z.number() });
export type WindowLatency = z.infer<typeof WindowLatency>;

/**
 * A phase's (or an endpoint's) latency figures, as contract/measurement.ts derives them. wait and
 * processing are null where no request carried Server-Timing (unknown, never wait = total; runs
 * stored before this rule may hold wait = total there: read through contract/engine-figures.ts
 * phaseFigures). ttfb and transfer are absent in runs stored before they were measured.
 */
export const LatencyFigures = {
  total: LatencyStats,
  wait: LatencyStats.nullable(),
  processing: LatencyStats.nullable(),
  serverWait: LatencyStats.nullable(),
  /** sent - intended: the client's own queue (how late the load generator was against its schedule) */
  lag: LatencyStats,
  /** first byte - sent: time to first byte */
  ttfb: LatencyStats.nullable().optional(),
  /** done - first byte: the response's transfer */
  transfer: LatencyStats.nullable().optional(),
};

/**
 * What arrived on a phase's (or an endpoint's) streams (issue 41, contract/stream.ts): each stream is
 * one of its requests (its total from the intended start to the stream's end); these time its
 * messages (SSE events, WebSocket messages, gRPC responses). ttfe: first message - intended (coordinated
 * omission free, like total); gap: between a stream's messages, a stream ending in an error while
 * waiting counting its open gap; rtt: a sent message to its reply (WebSocket). Absent: no stream.
 */
export const StreamFigures = z.object({
  /** stream requests ended (any outcome) */
  streams: z.number(),
  /** messages received */
  messages: z.number(),
  /** messages received per second over the phase's duration */
  rate: z.number(),
  /** bytes of the messages received (payload as framed: an SSE event's lines, a WebSocket message's data) */
  bytes: z.number(),
  /** messages sent (a WebSocket script's), 0 where none */
  sent: z.number(),
  ttfe: LatencyStats.nullable(),
  gap: LatencyStats.nullable(),
  rtt: LatencyStats.nullable(),
});
export type StreamFigures = z.infer<typeof StreamFigures>;

/**
 * The figures of a phase, and of each of its endpoints over only that endpoint's requests (made by
 * the same accumulator code): a figure added here is measured per endpoint too.
 */
const phaseFigures = {
  count: z.number(),
  ok: z.number(),
  errors: ErrorCounts,
  /** completed requests per second over the phase's duration */
  throughput: z.number(),
  ...LatencyFigures,
  /** its streams' messages (issue 41); absent: no stream request (and every run stored before) */
  stream: StreamFigures.optional(),
};

/** One check of an endpoint's expect (contract/checks.ts) under load: the responses it passed and failed. */
export const CheckCount = z.object({ name: z.string(), passes: z.number(), fails: z.number() });
export type CheckCount = z.infer<typeof CheckCount>;

/** One endpoint of a phase: a request template, by its name (contract/scenario.ts templateName). */
export const EndpointResult = z.object({
  name: z.string(),
  /** the template's index in its phase's requests: the templateIdx of its request rows */
  index: z.number(),
  ...phaseFigures,
  /** its checks, in its expect's order (k6: as k6 first reported them); absent: it has none (or a run stored before checks were counted) */
  checks: z.array(CheckCount).optional(),
});
export type EndpointResult = z.infer<typeof EndpointResult>;

/**
 * The new connections a phase opened to an https target (issue 28), each timed twice: connect (the
 * name lookup and TCP connect) and handshake (TLS, from the TCP connect to the secure connection),
 * ms. With keepAlive false every request opens one, so this is the per-request cost of TLS. Made by
 * engine/driver/transport/connect-timing.ts; absent over plain http, for k6 and in runs stored before.
 */
export const ConnectionFigures = z.object({
  /** connections whose handshake completed (each in both distributions) */
  opened: z.number(),
  connect: LatencyStats,
  handshake: LatencyStats,
  /** of them, those whose handshake ended before STARTUP_MS into the phase (a start-up storm); absent in runs stored before */
  atStartup: z.number().optional(),
});
export type ConnectionFigures = z.infer<typeof ConnectionFigures>;

/**
 * Why a phase's requests failed (issue 35): one kind and reason (the error's code and message, at
 * most MAX_REASON_CHARS; a server's text, so shown as data), and how many requests ended so. A phase
 * keeps at most MAX_ERROR_REASONS; a kind's count in `errors` also holds requests whose reason was
 * not kept (beyond the bound) or that had none (an http or body check).
 */
export const ErrorReason = z.object({ kind: ErrorKind, reason: z.string(), count: z.number() });
export type ErrorReason = z.infer<typeof ErrorReason>;

export const PhaseResult = z.object({
  index: z.number(),
  name: z.string(),
  executor: z.string(),
  clients: z.number(),
  /** ms from the server run start */
  startedMs: z.number(),
  durationMs: z.number(),
  ...phaseFigures,
  /** per endpoint, in template order; absent in runs stored before endpoints were measured (read: phaseEndpoints) */
  endpoints: z.array(EndpointResult).optional(),
  /** new connections to an https target and their connect / TLS handshake times; absent: none (plain http, k6, older runs) */
  connections: ConnectionFigures.optional(),
  /** why its requests failed, most frequent first; absent: no error with a reason (or k6, older runs) */
  errorReasons: z.array(ErrorReason).max(MAX_ERROR_REASONS).optional(),
});
export type PhaseResult = z.infer<typeof PhaseResult>;

/** A phase's endpoints; [] for a run stored before they were measured. */
export function phaseEndpoints(phase: Pick<PhaseResult, 'endpoints'>): EndpointResult[] {
  return phase.endpoints ?? [];
}

export const TARGET_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled', 'skipped'] as const;
export const TargetStatus = z.enum(TARGET_STATUSES);

/** One server run: one server of one matrix cell, with every phase run against it. */
export const TargetResult = z.object({
  id: z.number(),
  cellIndex: z.number(),
  serverIndex: z.number(),
  label: z.string(),
  /** the server run's one name: label, then its matrix cell's short name ("thread-pool · cores 1 · 128 req"); see contract/cells.ts */
  name: z.string(),
  architecture: z.string(),
  status: TargetStatus,
  reason: z.string().nullable(),
  startedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  phases: z.array(PhaseResult),
  peakCpu: z.number().nullable(),
  peakRssBytes: z.number().nullable(),
  peakProcesses: z.number().nullable(),
  rawRows: z.number(),
  rawSampled: z.boolean(),
  /** what the load spoke to the target (contract/protocol.ts: h1, h1-tls, h2, h2c; 'unknown': a stored word that is none); null or absent: not known (k6, older runs) */
  protocol: z.enum([...PROTOCOLS, 'unknown']).nullable().optional(),
});
export type TargetResult = z.infer<typeof TargetResult>;

export const CellInfo = z.object({
  index: z.number(),
  label: z.string(),
  params: z.record(z.string(), z.unknown()),
});
export type CellInfo = z.infer<typeof CellInfo>;

export const ReportTableResult = z.object({
  title: z.string(),
  unit: z.string(),
  header: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
});
export type ReportTableResult = z.infer<typeof ReportTableResult>;

export const MachineInfo = z.object({
  hostname: z.string(),
  platform: z.string(),
  cpus: z.number(),
  cpuModel: z.string(),
  memoryBytes: z.number(),
  node: z.string(),
  loadscope: z.string(),
});
export type MachineInfo = z.infer<typeof MachineInfo>;

/** A run's place in a group of repeated runs (`run --repeat N`): the group is named by its first run's id. */
export const RunGroupRef = z.object({ id: z.number(), index: z.number(), size: z.number() });
export type RunGroupRef = z.infer<typeof RunGroupRef>;

export const RunSummary = z.object({
  id: z.number(),
  scenarioName: z.string(),
  title: z.string(),
  status: RunStatus,
  reason: z.string().nullable(),
  quick: z.boolean(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  machine: MachineInfo.nullable(),
  /** the scenario exactly as run (matrix and quick already applied per cell) */
  scenario: z.unknown(),
  /** who generated the load; k6 runs say in engineNote what k6 does not measure (intended send time) */
  engine: RunEngine.default('native'),
  engineNote: z.string().nullable().default(null),
  cells: z.array(CellInfo),
  targets: z.array(TargetResult),
  report: z.array(ReportTableResult),
  /** every threshold checked, per server run and phase */
  thresholds: z.array(ThresholdResult),
  /** its regression verdict against a baseline (`run --baseline`); null or absent when it was not judged */
  regression: RunVerdict.nullable().optional(),
  group: RunGroupRef.nullable().default(null),
  /** the user's own name for the run (shown instead of the title) and note; null until set */
  name: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const RunListItem = z.object({
  id: z.number(),
  scenarioName: z.string(),
  title: z.string(),
  status: RunStatus,
  quick: z.boolean(),
  createdAt: z.string(),
  durationMs: z.number().nullable(),
  requests: z.number(),
  errors: z.number(),
  servers: z.array(z.string()),
  engine: RunEngine.default('native'),
  /** mean total time over all requests, ms */
  meanTotalMs: z.number().nullable(),
  thresholds: ThresholdTally,
  /** its regression verdict's tally (`run --baseline`); null or absent when it was not judged */
  regression: RegressionTally.optional(),
  group: RunGroupRef.nullable().default(null),
  name: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
  /** why this run cannot be read in full (a damaged page of the database); absent when it can */
  damaged: z.string().optional(),
});
export type RunListItem = z.infer<typeof RunListItem>;

/**
 * One endpoint's share of a live window (a phase of several requests; engine/driver/measure/endpoint-windows.ts
 * folds them: at most LIVE_ENDPOINTS lines, the rest as one, contract/live-endpoints.ts). Sent
 * live only, never stored: after the run the chart splits from the stored request rows.
 */
export const EndpointWindow = z.object({
  name: z.string(),
  count: z.number(),
  errors: ErrorCounts,
  total: WindowLatency.nullable(),
  wait: WindowLatency.nullable(),
  processing: WindowLatency.nullable(),
  ttfb: WindowLatency.nullable(),
  transfer: WindowLatency.nullable(),
});
export type EndpointWindow = z.infer<typeof EndpointWindow>;

/** A live window (250 ms) of one server run. */
/** A window's stream messages (issue 41): live and stored (windows.stream_json); absent: no stream message nor end in it. */
export const StreamWindow = z.object({
  messages: z.number(),
  /** messages per second over the window */
  rate: z.number(),
  ttfe: WindowLatency.nullable(),
  gap: WindowLatency.nullable(),
  rtt: WindowLatency.nullable(),
});
export type StreamWindow = z.infer<typeof StreamWindow>;

export const LiveWindow = z.object({
  runId: z.number(),
  targetId: z.number(),
  /** ms from the server run start, end of the window */
  tMs: z.number(),
  phaseIndex: z.number().nullable(),
  count: z.number(),
  throughput: z.number(),
  errors: ErrorCounts,
  inFlight: z.number(),
  total: WindowLatency.nullable(),
  wait: WindowLatency.nullable(),
  processing: WindowLatency.nullable(),
  /** time to first byte and transfer; absent in windows stored before they were measured */
  ttfb: WindowLatency.nullable().optional(),
  transfer: WindowLatency.nullable().optional(),
  /** open-loop arrivals waiting for a free client at the window's end (0 for closed loops) */
  queued: z.number().default(0),
  /** total times per heatmap bucket, [bucket, count, ...] (contract/latency-buckets.ts); absent in windows stored before them */
  totalBuckets: z.array(z.number()).optional(),
  /**
   * the load generator's own CPU over the window: the Loadscope process driving the load (the driver's
   * thread, the store's writes), 100 = one core; absent in windows stored before it (migration 21)
   */
  ownCpu: z.number().nullable().optional(),
  /** its streams' messages (issue 41); absent: none in it (and windows stored before migration 27) */
  stream: StreamWindow.optional(),
  /** live only, a phase of two or more requests: the window per endpoint (bounded; see EndpointWindow) */
  endpoints: z.array(EndpointWindow).max(LIVE_ENDPOINTS).optional(),
});
export type LiveWindow = z.infer<typeof LiveWindow>;

export const ServerSample = z.object({
  runId: z.number(),
  targetId: z.number(),
  tMs: z.number(),
  /** CPU of the server's whole process tree over the interval; 100 = one core */
  cpuPercent: z.number(),
  /** CPU of its busiest process alone (same scale); absent in samples stored before it (migration 21) */
  topCpuPercent: z.number().nullable().optional(),
  rssBytes: z.number(),
  processes: z.number(),
  busy: z.number().nullable(),
  queue: z.number().nullable(),
});
export type ServerSample = z.infer<typeof ServerSample>;

/** What `runs:windows` answers: a run's windows and server samples (its users' first requests are read for the diagnosis alone: engine/export/stored-diagnosis.ts). */
export const StoredWindows = z.object({ windows: z.array(LiveWindow), samples: z.array(ServerSample) });
export type StoredWindows = z.infer<typeof StoredWindows>;

/** One point of the per-request scatter (seed 004's charts). */
export const RequestPoint = z.object({
  phaseIndex: z.number(),
  /** the request's template (endpoint) in its phase: EndpointResult.index */
  templateIdx: z.number(),
  /** ms from the server run start, when the request was intended */
  intendedMs: z.number(),
  totalMs: z.number(),
  /** null without Server-Timing (unknown, as processing is) */
  waitMs: z.number().nullable(),
  processingMs: z.number().nullable(),
  serverWaitMs: z.number().nullable(),
  /** sent - intended (the client's own queue); null when it was never sent */
  lagMs: z.number().nullable(),
  /** first byte - sent; null without a response */
  ttfbMs: z.number().nullable(),
  /** done - first byte; null without a response */
  transferMs: z.number().nullable(),
  status: z.number(),
  error: ErrorKind.nullable(),
});
export type RequestPoint = z.infer<typeof RequestPoint>;

/** Encoded HDR histograms of one phase (compressed base64, values in microseconds). */
export const PhaseHistograms = z.object({
  targetId: z.number(),
  phaseIndex: z.number(),
  total: z.string(),
  wait: z.string().nullable(),
  processing: z.string().nullable(),
  serverWait: z.string().nullable(),
  lag: z.string().nullable(),
  ttfb: z.string().nullable().optional(),
  transfer: z.string().nullable().optional(),
});
export type PhaseHistograms = z.infer<typeof PhaseHistograms>;
