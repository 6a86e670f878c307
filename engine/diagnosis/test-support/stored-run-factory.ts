import type { LatencyStats, LiveWindow, PhaseResult, RunSummary, TargetResult } from '../../../contract/results.js';
import type { StoredRun } from '../stored-run.js';

// Stored runs built by hand for the rules' unit tests: every time figure flat at one value (mean =
// p50 = p99), so a test names only the figures its rule reads.

export function flatStats(ms: number, count = 1000): LatencyStats {
  return { count, mean: ms, min: ms, max: ms, stddev: 0, p50: ms, p66: ms, p75: ms, p80: ms, p90: ms, p95: ms, p98: ms, p99: ms, p999: ms };
}

export interface PhaseTimes { total: number; processing: number | null; lag: number; serverWait?: number | null }

export function createPhase(overrides: Partial<PhaseResult> & { times?: PhaseTimes } = {}): PhaseResult {
  const { times = { total: 20, processing: 19, lag: 0.1 }, ...rest } = overrides;
  const count = rest.count ?? 2000;
  const known = times.processing !== null;
  return {
    index: 0, name: 'steady', executor: 'closed', clients: 1, startedMs: 0, durationMs: 2000,
    count, ok: count, errors: {}, throughput: 200,
    total: flatStats(times.total, count),
    wait: known ? flatStats(Math.max(0, times.total - times.processing!), count) : null,
    processing: known ? flatStats(times.processing!, count) : null,
    serverWait: known && times.serverWait != null ? flatStats(times.serverWait, count) : null,
    lag: flatStats(times.lag, count),
    ttfb: flatStats(times.total - times.lag, count),
    transfer: flatStats(0.01, count),
    ...rest,
  };
}

export function createWindow(overrides: Partial<LiveWindow> = {}): LiveWindow {
  return { runId: 1, targetId: 1, tMs: 250, phaseIndex: 0, count: 50, throughput: 200, errors: {}, inFlight: 4, total: null, wait: null, processing: null, queued: 0, ...overrides };
}

export function createStoredRun(phases: PhaseResult[], options: { windows?: LiveWindow[]; scenario?: unknown; target?: Partial<TargetResult>; run?: Partial<RunSummary> } = {}): StoredRun {
  const target: TargetResult = {
    id: 1, cellIndex: 0, serverIndex: 0, label: 'single', name: 'single', architecture: 'single', status: 'completed', reason: null,
    startedAt: null, durationMs: 2000, phases, peakCpu: null, peakRssBytes: null, peakProcesses: null, rawRows: 0, rawSampled: false,
    ...options.target,
  };
  const run: RunSummary = {
    id: 1, scenarioName: 's', title: 's', status: 'completed', reason: null, quick: false, createdAt: '', endedAt: null, durationMs: 2000,
    machine: null, scenario: options.scenario ?? null, engine: 'native', engineNote: null, cells: [], targets: [target], report: [], thresholds: [], group: null,
    ...options.run,
  };
  return { run, windows: options.windows ?? [], samples: [] };
}
