import { encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { ERROR_KINDS } from '../../contract/error-kinds.js';
import { inLatencyHistograms, waitOf, type HistogramSet } from '../../contract/measurement.js';
import type { ErrorCounts, PhaseResult, WindowLatency } from '../../contract/results.js';
import { FastHistogram, latencyStats } from './fast-histogram.js';

// The one measuring sink every load generator feeds (native driver, k6 live, k6 import): a phase's
// five histograms, counters and PhaseResult, and a live/stored window's. Callers hand over numbers
// already in µs (NaN where a time was not measured) and an error code (NO_ERROR, -1, or an error
// kind's index), so the driver's hot path allocates nothing. Zod-free: the driver worker loads it.

// The one error kind inLatencyHistograms() leaves out, as a number for the hot path.
const REFUSED = ERROR_KINDS.indexOf('refused');
if (ERROR_KINDS.some((kind) => inLatencyHistograms(kind) === (kind === 'refused'))) throw new Error('accumulators.ts: the latency filter is not "all but refused" any more');

/** What a phase's result needs besides what was measured: the generator knows its own timing. */
export interface PhaseMeta {
  index: number;
  name: string;
  executor: string;
  clients: number;
  startedMs: number;
  durationMs: number;
}

/**
 * Everything measured for one phase. Latency histograms take every request that was attempted
 * against a listening server, i.e. all but connection refusals (whose near-zero times would only
 * flatter the percentiles); the counters take every request.
 */
export class PhaseAccumulator {
  readonly total = new FastHistogram(3);
  readonly wait = new FastHistogram(3);
  readonly processing = new FastHistogram(3);
  readonly serverWait = new FastHistogram(3);
  readonly lag = new FastHistogram(3);
  count = 0;
  ok = 0;
  /** requests never sent (k6's dropped iterations): counted and errors, not in throughput */
  unsent = 0;
  private readonly errors = new Float64Array(ERROR_KINDS.length);

  /** One finished request; procUs, serverWaitUs and lagUs are NaN where not measured. */
  record(code: number, totalUs: number, procUs: number, serverWaitUs: number, lagUs: number): void {
    this.count++;
    if (code < 0) this.ok++;
    else this.errors[code]!++;
    if (code === REFUSED) return;
    this.total.record(totalUs);
    if (procUs === procUs) this.processing.record(procUs);
    this.wait.record(waitOf(totalUs, procUs));
    if (serverWaitUs === serverWaitUs) this.serverWait.record(serverWaitUs);
    if (lagUs === lagUs) this.lag.record(lagUs);
  }

  /** n requests the generator never sent, counted as `code` errors and in no histogram. */
  recordUnsent(n: number, code: number): void {
    this.unsent += n;
    this.count += n;
    this.errors[code]! += n;
  }

  result(meta: PhaseMeta): { result: PhaseResult; histograms: HistogramSet } {
    const { durationMs } = meta;
    const total = this.total.toHdr();
    const wait = this.wait.toHdr();
    const lag = this.lag.toHdr();
    const processing = this.processing.count > 0 ? this.processing.toHdr() : null;
    const serverWait = this.serverWait.count > 0 ? this.serverWait.toHdr() : null;
    const result: PhaseResult = {
      ...meta,
      count: this.count,
      ok: this.ok,
      errors: Object.fromEntries(ERROR_KINDS.map((kind, i) => [kind, this.errors[i]!])) as PhaseResult['errors'],
      throughput: durationMs > 0 ? (this.count - this.unsent) / (durationMs / 1000) : 0,
      total: latencyStats(total, this.total.max, this.total.moments()),
      wait: latencyStats(wait, this.wait.max, this.wait.moments()),
      processing: processing ? latencyStats(processing, this.processing.max, this.processing.moments()) : null,
      serverWait: serverWait ? latencyStats(serverWait, this.serverWait.max, this.serverWait.moments()) : null,
      lag: latencyStats(lag, this.lag.max, this.lag.moments()),
    };
    return {
      result,
      histograms: {
        total: encodeIntoCompressedBase64(total),
        wait: encodeIntoCompressedBase64(wait),
        processing: processing ? encodeIntoCompressedBase64(processing) : null,
        serverWait: serverWait ? encodeIntoCompressedBase64(serverWait) : null,
        lag: encodeIntoCompressedBase64(lag),
      },
    };
  }
}

/** A window's figures: what the live chart and the stored timeline show of it. */
export interface WindowFigures {
  count: number;
  errors: ErrorCounts;
  total: WindowLatency | null;
  wait: WindowLatency | null;
  processing: WindowLatency | null;
}

/** The requests completed in one window (coarser histograms: a window only shows p50/p90/p99). */
export class WindowAccumulator {
  private readonly total = new FastHistogram(2);
  private readonly wait = new FastHistogram(2);
  private readonly processing = new FastHistogram(2);
  private count = 0;
  private readonly errors = new Float64Array(ERROR_KINDS.length);

  /**
   * waitNeedsServerTiming: wait only from requests that carry a processing time (k6, whose total is
   * its own, not the driver's); otherwise a request without one waited its whole total.
   */
  constructor(private readonly waitNeedsServerTiming = false) {}

  record(code: number, totalUs: number, procUs: number): void {
    this.count++;
    if (code >= 0) this.errors[code]!++;
    if (code === REFUSED) return;
    this.total.record(totalUs);
    if (procUs === procUs) this.processing.record(procUs);
    else if (this.waitNeedsServerTiming) return;
    this.wait.record(waitOf(totalUs, procUs));
  }

  /** The window's figures; starts the next window. */
  take(): WindowFigures {
    const errors: ErrorCounts = {};
    for (let code = 0; code < this.errors.length; code++) if (this.errors[code]! > 0) errors[ERROR_KINDS[code]!] = this.errors[code]!;
    const out: WindowFigures = { count: this.count, errors, total: this.total.windowStats(), wait: this.wait.windowStats(), processing: this.processing.windowStats() };
    this.count = 0;
    this.errors.fill(0);
    this.total.reset();
    this.wait.reset();
    this.processing.reset();
    return out;
  }
}
