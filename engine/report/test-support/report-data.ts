import type { LatencyStats, PhaseResult, TargetResult } from '../../../contract/results.js';

// Hand-made results for report and shape-check tests: no servers, no store.

/** Latency stats where every statistic is derived from one number (the mean), so tests can predict them. */
export function stats(mean: number, count = 100): LatencyStats {
  return {
    count,
    mean,
    min: mean * 0.5,
    max: mean * 2,
    stddev: mean * 0.1,
    p50: mean * 0.9,
    p66: mean * 1.0,
    p75: mean * 1.1,
    p80: mean * 1.2,
    p90: mean * 1.3,
    p95: mean * 1.4,
    p98: mean * 1.5,
    p99: mean * 1.6,
    p999: mean * 1.8,
  };
}

export interface PhaseSpec {
  name: string;
  index?: number;
  total: number;
  processing?: number | null;
  count?: number;
  durationMs?: number;
  throughput?: number;
  errors?: PhaseResult['errors'];
  clients?: number;
}

export function phaseResult(spec: PhaseSpec): PhaseResult {
  const count = spec.count ?? 100;
  const processing = spec.processing === undefined ? spec.total / 2 : spec.processing;
  const durationMs = spec.durationMs ?? 1000;
  return {
    index: spec.index ?? 0,
    name: spec.name,
    executor: 'burst',
    clients: spec.clients ?? 1,
    startedMs: 0,
    durationMs,
    count,
    ok: count,
    errors: spec.errors ?? {},
    throughput: spec.throughput ?? (count * 1000) / durationMs,
    total: stats(spec.total, count),
    wait: stats(processing === null ? spec.total : spec.total - processing, count),
    processing: processing === null ? null : stats(processing, count),
    serverWait: null,
    lag: stats(0.1, count),
  };
}

let nextId = 1;

export function target(label: string, cellIndex: number, phases: PhaseSpec[], extra: Partial<TargetResult> = {}): TargetResult {
  return {
    id: nextId++,
    cellIndex,
    serverIndex: 0,
    label,
    name: label,
    architecture: label,
    status: 'completed',
    reason: null,
    startedAt: null,
    durationMs: null,
    phases: phases.map((p, i) => phaseResult({ index: i, ...p })),
    peakCpu: null,
    peakRssBytes: null,
    peakProcesses: null,
    rawRows: 0,
    rawSampled: false,
    ...extra,
  };
}
