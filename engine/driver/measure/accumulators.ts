import type { Histogram } from 'hdr-histogram-js';
import { ERROR_KINDS, MAX_ERROR_REASONS, MAX_REASON_CHARS } from '../../../contract/error-kinds.js';
import { inLatencyHistograms, waitOf, type HistogramSet } from '../../../contract/measurement.js';
import { LATENCY_BUCKET_COUNT, latencyBucketOf, type LatencyBuckets } from '../../../contract/latency-buckets.js';
import type { ConnectionFigures, ErrorCounts, ErrorReason, PhaseResult, StreamFigures, StreamWindow, WindowLatency } from '../../../contract/results.js';
import { FastHistogram, latencyStats } from './fast-histogram.js';
import { encodeHdr } from './hdr.js';

// The one measuring sink every load generator feeds (native driver, k6 live, k6 import): a phase's
// seven histograms, counters and PhaseResult, and a live/stored window's. wait is recorded only for
// requests with a processing time (Server-Timing): without one it is unknown (contract/measurement.ts,
// which also says what a phase with some of each shows). Callers hand over numbers
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
  readonly ttfb = new FastHistogram(3);
  readonly transfer = new FastHistogram(3);
  count = 0;
  ok = 0;
  /** requests never sent (k6's dropped iterations): counted and errors, not in throughput */
  unsent = 0;
  private readonly errors = new Float64Array(ERROR_KINDS.length);
  /** what arrived on the phase's streams (issue 41); made by its first stream, so a phase without any pays nothing */
  private streams: StreamTimes | null = null;

  /** A phase's stream messages and ends, as stream transports report them (StreamTimes). */
  get stream(): StreamTimes {
    return (this.streams ??= new StreamTimes());
  }

  /** One finished request; every time but total is NaN where not measured. */
  record(code: number, totalUs: number, procUs: number, serverWaitUs: number, lagUs: number, ttfbUs: number, transferUs: number): void {
    this.count++;
    if (code < 0) this.ok++;
    else this.errors[code]!++;
    if (code === REFUSED) return;
    this.total.record(totalUs);
    if (procUs === procUs) {
      this.processing.record(procUs);
      this.wait.record(waitOf(totalUs, procUs));
    }
    if (serverWaitUs === serverWaitUs) this.serverWait.record(serverWaitUs);
    if (lagUs === lagUs) this.lag.record(lagUs);
    if (ttfbUs === ttfbUs) this.ttfb.record(ttfbUs);
    if (transferUs === transferUs) this.transfer.record(transferUs);
  }

  /** n requests the generator never sent, counted as `code` errors and in no histogram. */
  recordUnsent(n: number, code: number): void {
    this.unsent += n;
    this.count += n;
    this.errors[code]! += n;
  }

  result(meta: PhaseMeta): { result: PhaseResult; histograms: HistogramSet } {
    const { result, hdr } = this.measure(meta);
    const encoded = (h: Histogram | null) => (h ? encodeHdr(h) : null);
    return {
      result,
      histograms: {
        total: encodeHdr(hdr.total),
        wait: encoded(hdr.wait),
        processing: encoded(hdr.processing),
        serverWait: encoded(hdr.serverWait),
        lag: encodeHdr(hdr.lag),
        ttfb: encoded(hdr.ttfb),
        transfer: encoded(hdr.transfer),
      },
    };
  }

  /** The figures alone, without encoding the histograms (an endpoint's: only its phase's are stored). */
  figures(meta: PhaseMeta): PhaseResult {
    return this.measure(meta).result;
  }

  private measure(meta: PhaseMeta) {
    const { durationMs } = meta;
    const total = this.total.toHdr();
    const lag = this.lag.toHdr();
    const some = (h: FastHistogram) => (h.count > 0 ? h.toHdr() : null);
    const wait = some(this.wait);
    const processing = some(this.processing);
    const serverWait = some(this.serverWait);
    const ttfb = some(this.ttfb);
    const transfer = some(this.transfer);
    const result: PhaseResult = {
      ...meta,
      count: this.count,
      ok: this.ok,
      errors: Object.fromEntries(ERROR_KINDS.map((kind, i) => [kind, this.errors[i]!])) as PhaseResult['errors'],
      throughput: durationMs > 0 ? (this.count - this.unsent) / (durationMs / 1000) : 0,
      total: latencyStats(total, this.total.max, this.total.moments()),
      wait: wait ? latencyStats(wait, this.wait.max, this.wait.moments()) : null,
      processing: processing ? latencyStats(processing, this.processing.max, this.processing.moments()) : null,
      serverWait: serverWait ? latencyStats(serverWait, this.serverWait.max, this.serverWait.moments()) : null,
      lag: latencyStats(lag, this.lag.max, this.lag.moments()),
      ttfb: ttfb ? latencyStats(ttfb, this.ttfb.max, this.ttfb.moments()) : null,
      transfer: transfer ? latencyStats(transfer, this.transfer.max, this.transfer.moments()) : null,
      ...(this.streams !== null && { stream: this.streams.figures(durationMs) }),
    };
    return { result, hdr: { total, wait, processing, serverWait, lag, ttfb, transfer } };
  }
}

/**
 * What arrived on streams (issue 41, contract/stream.ts): a stream is also one request (record()),
 * and each message on it is timed here as it comes. ttfe counts from the stream's intended start,
 * as total does, so a stream that waited at the client or at a stalled server shows it; a gap is
 * between two messages of one stream, and a stream that ended in an error while waiting has its
 * open gap counted (a stall cut by the deadline is not lost). Times in µs, NaN where not measured.
 */
export class StreamTimes {
  readonly ttfe = new FastHistogram(3);
  readonly gap = new FastHistogram(3);
  readonly rtt = new FastHistogram(3);
  streams = 0;
  messages = 0;
  bytes = 0;
  sent = 0;

  /** one message received: ttfeUs for a stream's first, else gapUs since its previous; rttUs where it answers one sent */
  message(bytes: number, ttfeUs: number, gapUs: number, rttUs: number): void {
    this.messages++;
    this.bytes += bytes;
    if (ttfeUs === ttfeUs) this.ttfe.record(ttfeUs);
    if (gapUs === gapUs) this.gap.record(gapUs);
    if (rttUs === rttUs) this.rtt.record(rttUs);
  }

  /** one stream ended; openGapUs: the gap it was in when an error ended it (NaN: none) */
  ended(openGapUs: number): void {
    this.streams++;
    if (openGapUs === openGapUs) this.gap.record(openGapUs);
  }

  figures(durationMs: number): StreamFigures {
    const stats = (h: FastHistogram) => (h.count > 0 ? latencyStats(h.toHdr(), h.max, h.moments()) : null);
    return { streams: this.streams, messages: this.messages, rate: durationMs > 0 ? this.messages / (durationMs / 1000) : 0, bytes: this.bytes, sent: this.sent, ttfe: stats(this.ttfe), gap: stats(this.gap), rtt: stats(this.rtt) };
  }
}

/** A window's stream messages (coarse histograms, as the window's own). */
class StreamWindowTimes {
  readonly ttfe = new FastHistogram(2);
  readonly gap = new FastHistogram(2);
  readonly rtt = new FastHistogram(2);
  messages = 0;
  /** streams ended in the window: a window with none and no message has no stream figures */
  ends = 0;

  take(windowMs: number): StreamWindow | undefined {
    if (this.messages === 0 && this.ends === 0) return undefined;
    const out: StreamWindow = { messages: this.messages, rate: windowMs > 0 ? this.messages / (windowMs / 1000) : 0, ttfe: this.ttfe.windowStats(), gap: this.gap.windowStats(), rtt: this.rtt.windowStats() };
    this.messages = 0;
    this.ends = 0;
    this.ttfe.reset();
    this.gap.reset();
    this.rtt.reset();
    return out;
  }
}

/** A window's figures: what the live chart and the stored timeline show of it. */
export interface WindowFigures {
  count: number;
  errors: ErrorCounts;
  total: WindowLatency | null;
  wait: WindowLatency | null;
  processing: WindowLatency | null;
  ttfb: WindowLatency | null;
  transfer: WindowLatency | null;
  /** total times per heatmap bucket (contract/latency-buckets.ts) */
  totalBuckets: LatencyBuckets;
  /** its streams' messages; absent: no stream message nor end in it */
  stream?: StreamWindow;
}

/** The requests completed in one window (coarser histograms: a window only shows p50/p90/p99). */
export class WindowAccumulator {
  private readonly total = new FastHistogram(2);
  private readonly wait = new FastHistogram(2);
  private readonly processing = new FastHistogram(2);
  private readonly ttfb = new FastHistogram(2);
  private readonly transfer = new FastHistogram(2);
  private count = 0;
  private readonly errors = new Float64Array(ERROR_KINDS.length);
  private streams: StreamWindowTimes | null = null;

  /** A stream message in the window (as StreamTimes.message takes it). */
  message(ttfeUs: number, gapUs: number, rttUs: number): void {
    const s = (this.streams ??= new StreamWindowTimes());
    s.messages++;
    if (ttfeUs === ttfeUs) s.ttfe.record(ttfeUs);
    if (gapUs === gapUs) s.gap.record(gapUs);
    if (rttUs === rttUs) s.rtt.record(rttUs);
  }

  /** A stream ended in the window (as StreamTimes.ended takes it). */
  streamEnded(openGapUs: number): void {
    const s = (this.streams ??= new StreamWindowTimes());
    s.ends++;
    if (openGapUs === openGapUs) s.gap.record(openGapUs);
  }

  /** One finished request; every time but total is NaN where not measured (wait only with a processing time). */
  record(code: number, totalUs: number, procUs: number, ttfbUs: number, transferUs: number): void {
    this.count++;
    if (code >= 0) this.errors[code]!++;
    if (code === REFUSED) return;
    this.total.record(totalUs);
    if (ttfbUs === ttfbUs) this.ttfb.record(ttfbUs);
    if (transferUs === transferUs) this.transfer.record(transferUs);
    if (procUs !== procUs) return;
    this.processing.record(procUs);
    this.wait.record(waitOf(totalUs, procUs));
  }

  /** The window's figures (windowMs: its length, for the message rate); starts the next window. */
  take(windowMs = 0): WindowFigures {
    const errors: ErrorCounts = {};
    for (let code = 0; code < this.errors.length; code++) if (this.errors[code]! > 0) errors[ERROR_KINDS[code]!] = this.errors[code]!;
    const out: WindowFigures = {
      count: this.count,
      errors,
      total: this.total.windowStats(),
      wait: this.wait.windowStats(),
      processing: this.processing.windowStats(),
      ttfb: this.ttfb.windowStats(),
      transfer: this.transfer.windowStats(),
      totalBuckets: heatmapBuckets(this.total),
    };
    const stream = this.streams?.take(windowMs);
    if (stream !== undefined) out.stream = stream;
    this.count = 0;
    this.errors.fill(0);
    this.total.reset();
    this.wait.reset();
    this.processing.reset();
    this.ttfb.reset();
    this.transfer.reset();
    return out;
  }
}

// scratch for heatmapBuckets: windows are taken one at a time on one thread
const bucketScratch = new Float64Array(LATENCY_BUCKET_COUNT);

/** A window's total times per heatmap bucket, read off its histogram's slots (each slot by its lowest value). */
function heatmapBuckets(h: FastHistogram): LatencyBuckets {
  if (h.count === 0) return [];
  const counts = h.counts;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (c !== 0) bucketScratch[latencyBucketOf(h.valueFromIndex(i))]! += c;
  }
  const out: LatencyBuckets = [];
  for (let k = 0; k < LATENCY_BUCKET_COUNT; k++) {
    if (bucketScratch[k] === 0) continue;
    out.push(k, bucketScratch[k]!);
    bucketScratch[k] = 0;
  }
  return out;
}

/**
 * A phase's errors by why they happened (issue 35): at most MAX_ERROR_REASONS distinct kind and
 * reason, counted; a new reason past the bound counts only in its kind. The reason is the error's
 * code (or class name) and message, cut to MAX_REASON_CHARS. A repeated error is matched against
 * the kept code and message without building a string, so it costs no allocation.
 */
export class ErrorReasons {
  private readonly kinds: number[] = [];
  private readonly codes: string[] = [];
  /** messages as kept: cut to MAX_REASON_CHARS */
  private readonly messages: string[] = [];
  private readonly counts: number[] = [];

  /** A request that failed as `kind` (an error kind's index) with `err` (an Error, or what a library threw). */
  record(kind: number, err: unknown): void {
    let e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
    // a connection refused on every address of a name: the first address's error says it
    if (err instanceof AggregateError && err.message === '' && err.errors.length > 0) e = err.errors[0] as typeof e;
    const code = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' && e.name !== 'Error' ? e.name : '';
    const message = typeof e?.message === 'string' ? e.message : '';
    for (let i = 0; i < this.kinds.length; i++) {
      if (this.kinds[i] === kind && this.codes[i] === code && sameMessage(this.messages[i]!, message)) {
        this.counts[i]!++;
        return;
      }
    }
    if (this.kinds.length === MAX_ERROR_REASONS) return;
    this.kinds.push(kind);
    this.codes.push(code.slice(0, MAX_REASON_CHARS));
    this.messages.push(cut(message));
    this.counts.push(1);
  }

  /** The kept reasons, most frequent first; undefined when no error had one. */
  result(): ErrorReason[] | undefined {
    if (this.kinds.length === 0) return undefined;
    const out = this.kinds.map((kind, i) => {
      const code = this.codes[i]!;
      const message = this.messages[i]!;
      return { kind: ERROR_KINDS[kind]!, reason: cut(code === '' ? message : message === '' ? code : `${code}: ${message}`), count: this.counts[i]! };
    });
    return out.sort((a, b) => b.count - a.count);
  }
}

/** Text cut to MAX_REASON_CHARS, never through a surrogate pair. */
function cut(text: string): string {
  if (text.length <= MAX_REASON_CHARS) return text;
  const end = (text.charCodeAt(MAX_REASON_CHARS - 1) & 0xfc00) === 0xd800 ? MAX_REASON_CHARS - 1 : MAX_REASON_CHARS;
  return text.slice(0, end);
}

/** A message against a kept (cut) one: equal, or a long one that starts with it. */
function sameMessage(kept: string, message: string): boolean {
  return message.length <= MAX_REASON_CHARS ? kept === message : kept.length >= MAX_REASON_CHARS - 1 && message.startsWith(kept);
}

/**
 * One phase's new connections to an https target (all its client groups), timed by connect-timing.ts.
 * Those done within STARTUP_MS of the phase's start are counted apart: a keep-alive run opens its
 * connections there, and its requests wait for them (client queue), which Compare and `show` say.
 */
export class ConnectionTimes {
  private readonly connect = new FastHistogram(3);
  private readonly handshake = new FastHistogram(3);
  private atStartup = 0;

  /** @param startupEndUs the phase's start + STARTUP_MS (µs, the driver's clock) */
  constructor(private readonly startupEndUs: number) {}

  record(connectUs: number, handshakeUs: number, doneUs: number): void {
    this.connect.record(connectUs);
    this.handshake.record(handshakeUs);
    if (doneUs < this.startupEndUs) this.atStartup++;
  }

  /** The phase's figure, or undefined when it opened none (plain http opens none here). */
  result(): ConnectionFigures | undefined {
    if (this.handshake.count === 0) return undefined;
    const stats = (h: FastHistogram) => latencyStats(h.toHdr(), h.max, h.moments());
    return { opened: this.handshake.count, connect: stats(this.connect), handshake: stats(this.handshake), atStartup: this.atStartup };
  }
}
