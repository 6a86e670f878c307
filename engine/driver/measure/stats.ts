import type { Phase } from '../../../contract/scenario.js';
import { ErrorReasons, PhaseAccumulator, WindowAccumulator } from './accumulators.js';
import { EndpointAccumulators, phaseWithEndpoints } from './endpoint-accumulators.js';
import { EndpointWindows } from './endpoint-windows.js';
import { CheckCounts } from './check-counts.js';
import { ResponseChecks } from './response-checks.js';
import { COL, ERROR_CODE, ROW_BATCH_CAPACITY, ROW_STRIDE } from './raw-rows.js';
import type { NumberRing } from '../ring.js';
import type { DriverPhaseResult, DriverWindow } from '../types.js';
import { phaseName } from '../../../contract/phase.js';
import { templateName } from '../../../contract/template-name.js';
import { readChecks } from '../../../contract/checks.js';

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
  /** the request template (endpoint), by its index in the phase's requests */
  template: number;
  /** its trace seq (contract/trace-context.ts): absent or NaN when its phase does not trace or it was never sent */
  seq?: number;
  /** what ended the request when it failed (absent or null: nothing thrown, e.g. an http status check) */
  readonly failure?: Error | null;
  /** the error kind classifyError gave `failure`: its reason is kept only under that kind (not, say, a destroy turned timeout at a deadline) */
  readonly failureKind?: number;
  /** a stream (issue 41), with its messages so far and when the last came (µs); absent or false: a plain request */
  readonly stream?: boolean;
  readonly messages?: number;
  readonly lastMessage?: number;
}

// Column offsets as plain numbers for the hot path (derived from contract/measurement.ts).
const { phaseIdx: C_PHASE, clientIdx: C_CLIENT, intendedUs: C_INTENDED, sentUs: C_SENT, firstByteUs: C_FIRST_BYTE, doneUs: C_DONE, status: C_STATUS, bytes: C_BYTES, error: C_ERROR, serverWaitUs: C_SERVER_WAIT, serverProcUs: C_SERVER_PROC, templateIdx: C_TEMPLATE, traceSeq: C_TRACE } = COL;

/**
 * Lent batches out at once before the worker holds (issue 42, back-pressure): 8 flushes of 25 ms,
 * so a main thread that falls behind for longer stops the load instead of making rows queue
 * without bound. Its memory: ROW_BATCH_CAPACITY rows a batch (426 KB), 3.8 MB with the one filling.
 */
const LENT_BATCHES = 8;

/**
 * Raw rows of the whole worker, batched (see raw-rows.ts) and handed to `post` when full or flushed.
 * `lent`: the listener hands each batch back (recycle) once stored, so a flush sends the batch it
 * filled and goes on in a returned one: no new memory per flush on either thread. Otherwise a flush
 * sends an exact-size copy and keeps its buffer.
 *
 * Back-pressure (lent only): with LENT_BATCHES out and none handed back the sink is `holding`: the
 * client groups send nothing new (group.ts holds each request it would have sent, its intended time
 * kept), the timed flushes wait, and the requests already out still write their rows here; a batch
 * that fills meanwhile goes out anyway (at most the requests in flight beyond the bound). The first
 * batch handed back ends the hold and calls `resumed`.
 *
 *   worker:  [filling] ──flush──▶ lent out (≤ LENT_BATCHES) ──main stores it──▶ recycle ──▶ spare
 *                                    └─ all out: holding, until one comes back
 */
export class RowSink {
  private buf: Float64Array = new Float64Array(ROW_BATCH_CAPACITY * ROW_STRIDE);
  private n = 0;
  private readonly spare: Float64Array[] = [];
  /** lent batches not handed back yet */
  private lentOut = 0;

  /** resumed: called when a hold ends (the Runner sends what its groups held) */
  constructor(
    private readonly enabled: boolean,
    private readonly post: (rows: Float64Array, count: number) => void,
    private readonly lent = false,
    private readonly resumed: () => void = () => undefined,
  ) {}

  /** LENT_BATCHES are out and none came back: nothing new may be sent */
  get holding(): boolean {
    return this.lentOut >= LENT_BATCHES;
  }

  /** A batch the listener is done with (its whole buffer, whatever view of it was sent). */
  recycle(rows: Float64Array): void {
    if (rows.buffer.byteLength !== this.buf.buffer.byteLength) return; // an exact-size copy
    const held = this.holding;
    this.lentOut--;
    if (this.spare.length < LENT_BATCHES) this.spare.push(new Float64Array(rows.buffer));
    if (held && !this.holding) this.resumed();
  }

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
    b[o + C_TEMPLATE] = r.template;
    b[o + C_TRACE] = r.seq ?? NaN;
    if (++this.n === ROW_BATCH_CAPACITY) this.flush(true);
  }

  /**
   * Sends the rows so far (their buffer is transferred): the filled batch itself when lent, else an
   * exact-size copy. While holding, only a full batch or a `final` flush (a phase's or the run's
   * end: no row may stay behind) goes out.
   */
  flush(final = false): void {
    if (this.n === 0) return;
    if (!this.lent) {
      const count = this.n;
      this.n = 0;
      return this.post(this.buf.slice(0, count * ROW_STRIDE), count);
    }
    if (this.holding && !final) return;
    const count = this.n;
    this.n = 0;
    this.lentOut++;
    const out = this.buf.subarray(0, count * ROW_STRIDE);
    this.buf = this.spare.pop() ?? new Float64Array(ROW_BATCH_CAPACITY * ROW_STRIDE);
    this.post(out, count);
  }
}

/**
 * Everything measured for one phase (all its client groups): the shared phase and window
 * accumulators (accumulators.ts, fed by k6 too) and the phase's raw rows.
 */
export class PhaseStats {
  private readonly phase = new PhaseAccumulator();
  private readonly window = new WindowAccumulator();
  private readonly reasons = new ErrorReasons();
  private readonly endpoints: EndpointAccumulators;

  /** a complete response judged by its template's checks, each counted (check-counts.ts) */
  readonly responses: ResponseChecks;

  /**
   * endpointNames: the phase's endpoint names in template order (none: a phase of one endpoint,
   * unnamed); endpointWindows: its live windows per endpoint; checks: its endpoints' checks counted
   */
  constructor(
    private readonly rows: RowSink,
    endpointNames: readonly string[] = [],
    private readonly endpointWindows: EndpointWindows = new EndpointWindows(),
    private readonly checks: CheckCounts = new CheckCounts(),
  ) {
    this.endpoints = new EndpointAccumulators(endpointNames);
    this.responses = new ResponseChecks(checks);
  }

  /** the row batches are all out (RowSink.holding): a client group sends nothing new */
  get rowsHeld(): boolean {
    return this.rows.holding;
  }

  /** Measures a phase's requests, its endpoints named from its templates, each with its checks. */
  static of(phase: Phase, rows: RowSink): PhaseStats {
    const checks = new CheckCounts(phase.requests.map((t) => readChecks(t.expect).checks.map((c) => c.name)));
    return new PhaseStats(rows, phase.requests.map(templateName), new EndpointWindows(phase.requests), checks);
  }

  get count(): number {
    return this.phase.count;
  }

  /** code: NO_ERROR (-1) or an error kind's index */
  /**
   * Requests a stopped open-loop group still owed (waiting at the client: `waiting`, oldest first
   * each), emptied and recorded as timeouts at `done`, each at the endpoint `picker` gives it, so
   * the endpoints' counts add up to the phase's.
   */
  recordOwed(phase: number, client: number, waiting: readonly NumberRing[], done: number, picker: { pick(): number }): void {
    const r: RequestRecord = { phase, client, intended: 0, sent: NaN, firstByte: NaN, status: 0, bytes: 0, stWait: NaN, stProc: NaN, template: 0, seq: NaN };
    for (const ring of waiting) {
      while (ring.length > 0) {
        r.intended = ring.shift();
        r.template = picker.pick();
        this.record(r, done, ERROR_CODE.timeout);
      }
    }
  }

  record(r: RequestRecord, done: number, code: number): void {
    const total = done - r.intended;
    // The same µs the raw row holds (stProc * 1000), so histograms, CSV and scatter agree.
    const p = r.stProc * 1000;
    // time to first byte and transfer, as deriveTimes() has them (NaN where not measured)
    const ttfb = r.firstByte - r.sent;
    const transfer = done - r.firstByte;
    const serverWait = r.stWait * 1000;
    const lag = r.sent - r.intended;
    // a stream that an error ended while it waited for a message: that open gap is a gap too (CO-free)
    if (r.stream === true) this.streamEnded(r.template, code >= 0 && r.messages! > 0 ? done - r.lastMessage! : NaN);
    this.phase.record(code, total, p, serverWait, lag, ttfb, transfer);
    this.endpoints.at(r.template)?.record(code, total, p, serverWait, lag, ttfb, transfer);
    this.window.record(code, total, p, ttfb, transfer);
    this.endpointWindows.record(r.template, code, total, p, ttfb, transfer);
    if (code >= 0 && r.failure != null && r.failureKind === code) this.reasons.record(code, r.failure);
    this.rows.write(r, done, code);
  }

  /**
   * A message arrived on a stream of template `template` (issue 41): ttfeUs for its stream's first
   * (from the intended start), else gapUs since the previous; rttUs where it answers one sent; NaN where not.
   */
  message(template: number, bytes: number, ttfeUs: number, gapUs: number, rttUs: number): void {
    this.phase.stream.message(bytes, ttfeUs, gapUs, rttUs);
    this.endpoints.at(template)?.stream.message(bytes, ttfeUs, gapUs, rttUs);
    this.window.message(ttfeUs, gapUs, rttUs);
  }

  /** A message sent on a stream of template `template` (a WebSocket script's). */
  messageSent(template: number): void {
    this.phase.stream.sent++;
    const e = this.endpoints.at(template);
    if (e !== null) e.stream.sent++;
  }

  /** A stream of template `template` ended (before its record()); openGapUs: the gap an error ended it in, else NaN. */
  streamEnded(template: number, openGapUs: number): void {
    this.phase.stream.ended(openGapUs);
    this.endpoints.at(template)?.stream.ended(openGapUs);
    this.window.streamEnded(openGapUs);
  }

  /** The live window ending at tMs; resets the window's counters. */
  takeWindow(phaseIndex: number, tMs: number, windowMs: number, inFlight: number, queued: number): DriverWindow {
    const w = this.window.take(windowMs);
    const endpoints = this.endpointWindows.take();
    return { tMs, phaseIndex, count: w.count, throughput: w.count / (windowMs / 1000), errors: w.errors, inFlight, queued, total: w.total, wait: w.wait, processing: w.processing, ttfb: w.ttfb, transfer: w.transfer, totalBuckets: w.totalBuckets, ...(w.stream !== undefined && { stream: w.stream }), ...(endpoints !== undefined && { endpoints }) };
  }

  result(index: number, phase: Phase, startUs: number, endUs: number, hitDeadline: boolean): DriverPhaseResult {
    const durationMs = Math.max(0, endUs - startUs) / 1000;
    const meta = { index, name: phaseName(phase, index), executor: phase.executor, clients: phase.clients, startedMs: startUs / 1000, durationMs };
    const measured = phaseWithEndpoints(this.phase, this.endpoints, meta, this.checks);
    const errorReasons = this.reasons.result();
    return { ...(errorReasons === undefined ? measured : { ...measured, result: { ...measured.result, errorReasons } }), hitDeadline };
  }
}
