import { encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { ERROR_KINDS, type PhaseResult } from '../../../contract/results.js';
import type { HistogramSet } from '../../../contract/measurement.js';
import { inLatencyHistograms, waitOf } from '../../../contract/measurement.js';
import { FastHistogram, latencyStats } from '../../driver/fast-histogram.js';
import type { K6Dropped, K6Request, PhaseRef } from './k6-request.js';

// Per server run (a cell and server), per phase: the same histograms and counters the native driver
// keeps (engine/driver/stats.ts), filled from k6's points. Memory is per phase, not per request.
// Requests k6 made are in the latency histograms as the driver's are (all but refusals); k6's
// dropped iterations are requests never sent: counted, and as timeouts among the errors (the native
// driver records arrivals still unsent at a deadline the same way), never in a latency histogram.
// Lag (sent - intended) is not measured by k6, so its histogram stays empty.

export class PhaseAcc {
  readonly total = new FastHistogram(3);
  readonly wait = new FastHistogram(3);
  readonly processing = new FastHistogram(3);
  readonly serverWait = new FastHistogram(3);
  readonly lag = new FastHistogram(3);
  count = 0;
  ok = 0;
  dropped = 0;
  readonly errors = new Float64Array(ERROR_KINDS.length);
  firstStartUs = Infinity;
  lastEndUs = -Infinity;

  constructor(
    readonly key: string,
    public ref: PhaseRef,
  ) {}

  add(r: K6Request): void {
    this.count++;
    if (r.error === null) this.ok++;
    else this.errors[ERROR_KINDS.indexOf(r.error)]!++;
    const totalUs = r.totalMs * 1000;
    this.firstStartUs = Math.min(this.firstStartUs, r.endUs - totalUs);
    this.lastEndUs = Math.max(this.lastEndUs, r.endUs);
    if (!inLatencyHistograms(r.error)) return;
    this.total.record(totalUs);
    const procUs = r.procMs === null ? NaN : r.procMs * 1000;
    this.wait.record(waitOf(totalUs, procUs));
    if (r.procMs !== null) this.processing.record(procUs);
    if (r.serverWaitMs !== null) this.serverWait.record(r.serverWaitMs * 1000);
  }

  addDropped(d: K6Dropped): void {
    this.dropped += d.count;
    this.count += d.count;
    this.errors[ERROR_KINDS.indexOf('timeout')]! += d.count;
  }

  result(index: number, executor: string, clients: number, t0Us: number): { result: PhaseResult; histograms: HistogramSet } {
    const start = Number.isFinite(this.firstStartUs) ? this.firstStartUs : t0Us;
    const durationMs = Number.isFinite(this.lastEndUs) ? Math.max(0, this.lastEndUs - start) / 1000 : 0;
    const hdr = (h: FastHistogram) => h.toHdr();
    const [total, wait, lag] = [hdr(this.total), hdr(this.wait), hdr(this.lag)];
    const processing = this.processing.count > 0 ? hdr(this.processing) : null;
    const serverWait = this.serverWait.count > 0 ? hdr(this.serverWait) : null;
    return {
      result: {
        index,
        name: this.ref.name,
        executor,
        clients,
        startedMs: (start - t0Us) / 1000,
        durationMs,
        count: this.count,
        ok: this.ok,
        errors: Object.fromEntries(ERROR_KINDS.map((k, i) => [k, this.errors[i]!])) as PhaseResult['errors'],
        throughput: durationMs > 0 ? (this.count - this.dropped) / (durationMs / 1000) : 0,
        total: latencyStats(total, this.total.max),
        wait: latencyStats(wait, this.wait.max),
        processing: processing ? latencyStats(processing, this.processing.max) : null,
        serverWait: serverWait ? latencyStats(serverWait, this.serverWait.max) : null,
        lag: latencyStats(lag),
      },
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

/** One server run's phases, keyed by phase index (or name for foreign scripts). */
export class TargetAcc {
  readonly phases = new Map<string, PhaseAcc>();
  /** where its requests came from (see collect.ts); null while it has only dropped iterations */
  source: K6Request['source'] | null = null;
  firstStartUs = Infinity;
  lastEndUs = -Infinity;

  constructor(
    readonly cell: number,
    readonly server: string,
  ) {}

  phase(ref: PhaseRef): PhaseAcc {
    const key = ref.index === null ? `name:${ref.name}` : `idx:${ref.index}`;
    let acc = this.phases.get(key);
    if (!acc) this.phases.set(key, (acc = new PhaseAcc(key, ref)));
    // whichever point came first, the phase is named by its phase tag where any point carries one
    else if (ref.tagged && !acc.ref.tagged) acc.ref = ref;
    return acc;
  }

  add(r: K6Request): void {
    this.source ??= r.source;
    this.phase(r.phase).add(r);
    this.firstStartUs = Math.min(this.firstStartUs, r.endUs - r.totalMs * 1000);
    this.lastEndUs = Math.max(this.lastEndUs, r.endUs);
  }

  /** Phases in scenario order: by index, then foreign ones in the order they were first seen. */
  ordered(): PhaseAcc[] {
    const all = [...this.phases.values()];
    const indexed = all.filter((p) => p.ref.index !== null).sort((a, b) => a.ref.index! - b.ref.index!);
    return [...indexed, ...all.filter((p) => p.ref.index === null)];
  }
}
