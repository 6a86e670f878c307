import { encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { ERROR_KINDS } from '../../contract/error-kinds.js';
import type { ErrorCounts, PhaseResult } from '../../contract/results.js';
import type { Phase } from '../../contract/scenario.js';
import { FastHistogram, latencyStats } from './fast-histogram.js';
import { inLatencyHistograms, waitOf } from '../../contract/measurement.js';
import { COL, ERROR_CODE, ROW_BATCH_CAPACITY, ROW_STRIDE } from './raw-rows.js';
import type { DriverPhaseResult, DriverWindow } from './types.js';
import { phaseName } from '../../contract/phase.js';

/** The fields of one finished request the aggregator reads (a Slot, or a never-sent queued arrival). */
export interface RequestRecord {
  readonly phase: number;
  readonly client: number;
  intended: number;
  sent: number;
  firstByte: number;
  status: number;
  bytes: number;
  stWait: number;
  stProc: number;
}

// The one error kind inLatencyHistograms() leaves out, as a number for the hot path.
const REFUSED = ERROR_CODE.refused;
if (ERROR_KINDS.some((kind) => inLatencyHistograms(kind) === (kind === 'refused'))) throw new Error('stats.ts: the latency filter is not "all but refused" any more');

// Column offsets as plain numbers for the hot path (derived from contract/measurement.ts).
const { phaseIdx: C_PHASE, clientIdx: C_CLIENT, intendedUs: C_INTENDED, sentUs: C_SENT, firstByteUs: C_FIRST_BYTE, doneUs: C_DONE, status: C_STATUS, bytes: C_BYTES, error: C_ERROR, serverWaitUs: C_SERVER_WAIT, serverProcUs: C_SERVER_PROC } = COL;

/** Raw rows of the whole worker, batched (see raw-rows.ts) and handed to `post` when full or flushed. */
export class RowSink {
  private buf = new Float64Array(ROW_BATCH_CAPACITY * ROW_STRIDE);
  private n = 0;

  constructor(
    private readonly enabled: boolean,
    private readonly post: (rows: Float64Array, count: number) => void,
  ) {}

  write(r: RequestRecord, done: number, code: number): void {
    if (!this.enabled) return;
    const b = this.buf;
    const o = this.n * ROW_STRIDE;
    b[o + C_PHASE] = r.phase;
    b[o + C_CLIENT] = r.client;
    b[o + C_INTENDED] = r.intended;
    b[o + C_SENT] = r.sent;
    b[o + C_FIRST_BYTE] = r.firstByte;
    b[o + C_DONE] = done;
    b[o + C_STATUS] = r.status;
    b[o + C_BYTES] = r.bytes;
    b[o + C_ERROR] = code;
    b[o + C_SERVER_WAIT] = r.stWait * 1000;
    b[o + C_SERVER_PROC] = r.stProc * 1000;
    if (++this.n === ROW_BATCH_CAPACITY) this.flush();
  }

  /** Sends the rows so far as an exact-size copy (whose buffer is transferred); keeps the big buffer. */
  flush(): void {
    if (this.n === 0) return;
    const out = this.buf.slice(0, this.n * ROW_STRIDE);
    const count = this.n;
    this.n = 0;
    this.post(out, count);
  }
}

/**
 * Everything measured for one phase (all its client groups): HDR-layout histograms for the phase and
 * for the current live window, and plain counters. Latency histograms take every request that was
 * attempted against a listening server, i.e. all but connection refusals (whose near-zero times would
 * only flatter the percentiles); the counters and raw rows take every request.
 */
export class PhaseStats {
  readonly total = new FastHistogram(3);
  readonly wait = new FastHistogram(3);
  readonly processing = new FastHistogram(3);
  readonly serverWait = new FastHistogram(3);
  readonly lag = new FastHistogram(3);
  private readonly wTotal = new FastHistogram(2);
  private readonly wWait = new FastHistogram(2);
  private readonly wProcessing = new FastHistogram(2);
  count = 0;
  ok = 0;
  private readonly errors = new Float64Array(ERROR_KINDS.length);
  private wCount = 0;
  private readonly wErrors = new Float64Array(ERROR_KINDS.length);

  constructor(private readonly rows: RowSink) {}

  /** code: NO_ERROR (-1) or an error kind's index */
  record(r: RequestRecord, done: number, code: number): void {
    this.count++;
    this.wCount++;
    if (code < 0) this.ok++;
    else {
      this.errors[code]!++;
      this.wErrors[code]!++;
    }
    if (code !== REFUSED) {
      const total = done - r.intended;
      this.total.record(total);
      this.wTotal.record(total);
      // The same µs the raw row holds (stProc * 1000), so histograms, CSV and scatter agree.
      const p = r.stProc * 1000;
      if (p === p) {
        this.processing.record(p);
        this.wProcessing.record(p);
      }
      const wait = waitOf(total, p);
      this.wait.record(wait);
      this.wWait.record(wait);
      if (r.stWait === r.stWait) this.serverWait.record(r.stWait * 1000);
      if (r.sent === r.sent) this.lag.record(r.sent - r.intended);
    }
    this.rows.write(r, done, code);
  }

  /** The live window ending at tMs; resets the window's counters. */
  takeWindow(phaseIndex: number, tMs: number, windowMs: number, inFlight: number, queued: number): DriverWindow {
    const w: DriverWindow = {
      tMs,
      phaseIndex,
      count: this.wCount,
      throughput: this.wCount / (windowMs / 1000),
      errors: errorCounts(this.wErrors),
      inFlight,
      queued,
      total: this.wTotal.windowStats(),
      wait: this.wWait.windowStats(),
      processing: this.wProcessing.windowStats(),
    };
    this.wCount = 0;
    this.wErrors.fill(0);
    this.wTotal.reset();
    this.wWait.reset();
    this.wProcessing.reset();
    return w;
  }

  result(index: number, phase: Phase, startUs: number, endUs: number, hitDeadline: boolean): DriverPhaseResult {
    const durationMs = Math.max(0, endUs - startUs) / 1000;
    const total = this.total.toHdr();
    const wait = this.wait.toHdr();
    const lag = this.lag.toHdr();
    const processing = this.processing.count > 0 ? this.processing.toHdr() : null;
    const serverWait = this.serverWait.count > 0 ? this.serverWait.toHdr() : null;
    const result: PhaseResult = {
      index,
      name: phaseName(phase, index),
      executor: phase.executor,
      clients: phase.clients,
      startedMs: startUs / 1000,
      durationMs,
      count: this.count,
      ok: this.ok,
      errors: allErrorCounts(this.errors),
      throughput: durationMs > 0 ? this.count / (durationMs / 1000) : 0,
      total: latencyStats(total, this.total.max, this.total.moments()),
      wait: latencyStats(wait, this.wait.max, this.wait.moments()),
      processing: processing ? latencyStats(processing, this.processing.max, this.processing.moments()) : null,
      serverWait: serverWait ? latencyStats(serverWait, this.serverWait.max, this.serverWait.moments()) : null,
      lag: latencyStats(lag, this.lag.max, this.lag.moments()),
    };
    return {
      result,
      hitDeadline,
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

function allErrorCounts(byCode: Float64Array): PhaseResult['errors'] {
  return Object.fromEntries(ERROR_KINDS.map((kind, i) => [kind, byCode[i]!])) as PhaseResult['errors'];
}

function errorCounts(byCode: Float64Array): ErrorCounts {
  const out: ErrorCounts = {};
  for (let code = 0; code < byCode.length; code++) {
    const n = byCode[code]!;
    if (n > 0) out[ERROR_KINDS[code]!] = n;
  }
  return out;
}
