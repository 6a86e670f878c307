import * as hdr from 'hdr-histogram-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LatencyStats, type MachineInfo, type PhaseResult } from '../../contract/results.js';
import { packRequests, type RequestRow } from '../../contract/measurement.js';
import type { HistogramSet, NewRun } from '../store.js';
import type { RunVerdict } from '../../contract/run-verdict.js';

// Small factories for the store's tests: a temp folder per test, and plausible runs, phases,
// histograms and raw rows.

export function tempDir(): { dir: string; dbPath: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-db-'));
  return { dir, dbPath: join(dir, 'nested', 'loadscope.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function stats(mean: number, count = 100): LatencyStats {
  return { count, mean, min: mean / 2, max: mean * 3, stddev: mean / 4, p50: mean, p66: mean, p75: mean, p80: mean, p90: mean * 1.5, p95: mean * 2, p98: mean * 2, p99: mean * 2.5, p999: mean * 3 };
}

export const machine: MachineInfo = { hostname: 'box', platform: 'linux', cpus: 2, cpuModel: 'test cpu', memoryBytes: 8e9, node: 'v20', loadscope: '0.1.0' };

export function newRun(overrides: Partial<NewRun> = {}): NewRun {
  return { scenarioName: 'seed-004', title: 'Offload vs single', quick: false, scenario: { servers: [{ architecture: 'single' }], phases: [] }, machine, ...overrides };
}

export function phaseResult(index: number, overrides: Partial<PhaseResult> = {}): PhaseResult {
  return {
    index,
    name: `phase ${index}`,
    executor: 'closed',
    clients: 1,
    startedMs: index * 1000,
    durationMs: 1000,
    count: 100,
    ok: 98,
    errors: { timeout: 2 },
    throughput: 100,
    total: stats(10),
    wait: stats(4),
    processing: stats(6),
    serverWait: stats(1),
    lag: stats(0.1),
    ...overrides,
  };
}

export function encodedHistogram(valuesUs: readonly number[]): string {
  const h = hdr.build({ useWebAssembly: false });
  for (const v of valuesUs) h.recordValue(v);
  return hdr.encodeIntoCompressedBase64(h);
}

export function histograms(): HistogramSet {
  return { total: encodedHistogram([1000, 2000, 3000]), wait: encodedHistogram([400, 800]), processing: encodedHistogram([600, 1200]), serverWait: encodedHistogram([50, 70]), lag: encodedHistogram([10, 20, 30]), ttfb: encodedHistogram([700, 1500]), transfer: encodedHistogram([100, 200]) };
}

export function decodedMax(encoded: string): number {
  return hdr.decodeFromCompressedBase64(encoded, 32, false).maxValue;
}

export function requestRow(i: number, overrides: Partial<RequestRow> = {}): RequestRow {
  return {
    phaseIdx: 0,
    clientIdx: i % 4,
    intendedUs: i * 100,
    sentUs: i * 100 + 5,
    firstByteUs: i * 100 + 900,
    doneUs: i * 100 + 1000,
    status: 200,
    bytes: 512,
    error: null,
    serverWaitUs: 50,
    serverProcUs: 600,
    templateIdx: 0,
    traceSeq: null,
    ...overrides,
  };
}

/** Rows numbered from..from+count-1 (intendedUs = i * 100, so a row's number is recoverable). */
export function requestBatch(from: number, count: number, overrides: Partial<RequestRow> = {}): Float64Array {
  return packRequests(Array.from({ length: count }, (_, k) => requestRow(from + k, overrides)));
}

/**
 * A regression verdict as `run --baseline` stores it (contract/run-verdict.ts): `total.p99 > +10%`
 * failed on single / steady at +42.8 % (moved most: GET /slow), `throughput < -5%` passed.
 */
export function runVerdict(baselineRunIds: number[], nowRunIds: number[], overrides: Partial<RunVerdict> = {}): RunVerdict {
  const check = { server: 'single', phase: 'steady', endpoint: null, interval: { low: 0.3, high: 0.55 }, judgement: 'beyond' as const, movedMost: null };
  return {
    baselineRunIds,
    nowRunIds,
    failed: true,
    judgedAt: '2025-01-01T00:00:00.000Z',
    rules: [
      {
        rule: 'total.p99 > +10%',
        metric: 'total.p99',
        relative: true,
        verdict: 'fail',
        why: '1 of 1 failed',
        checkCount: 1,
        checks: [{ ...check, baseline: 10, now: 14.28, change: 0.428, verdict: 'fail', why: 'changed +42.8 % (95 % interval +30.0 % .. +55.0 %): beyond the margin +10.0 % and the noise; moved most: GET /slow +120.0 % (10.00 ms → 22.00 ms)', movedMost: { endpoint: 'GET /slow', baseline: 10, now: 22, change: 1.2 } }],
      },
      { rule: 'throughput < -5%', metric: 'throughput', relative: true, verdict: 'pass', why: '1 passed', checkCount: 1, checks: [{ ...check, baseline: 50, now: 49.9, change: -0.002, interval: { low: -0.01, high: 0.006 }, judgement: 'within', verdict: 'pass', why: 'changed -0.2 % (95 % interval -1.0 % .. +0.6 %): within the margin -5.0 %' }] },
    ],
    ...overrides,
  };
}
