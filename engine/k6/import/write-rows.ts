import { basename } from 'node:path';
import { COL, REQUEST_STRIDE, errorCode } from '../../../contract/measurement.js';
import type { RunWriter, WindowInput } from '../../../db/store.js';
import { WindowAccumulator } from '../../driver/measure/accumulators.js';
import type { TargetAcc } from './k6-accumulator.js';
import { targetKey } from './collect.js';
import { isDropped, requestOfPoint, type K6Request } from './k6-request.js';
import { readPoints } from './read-points.js';
import { streamOfPoint, type K6StreamPoint } from './k6-stream-point.js';

// Pass 2 of an import: now that each server run's t0 (its first request's start) is known, the files
// are read again and each request becomes a raw row (times from t0, as the native driver's) and part
// of a timeline window. k6 has no intended time: intended = sent = end - total. Windows are at least
// 250 ms and at most WINDOWS_MAX a server run, so their histograms stay small whatever the run's length.
// A window (the driver's window accumulator) has wait and processing only from requests with
// Server-Timing, never k6's whole time as wait.

const BATCH = 4096;
export const WINDOWS_MAX = 120;

interface Window {
  acc: WindowAccumulator;
  phaseIndex: number;
}

/** Where a sink's rows and windows go: the store (an import) or a load generator's guarded writes (a k6 run). */
export interface RowWrites {
  rows(rows: Float64Array, count: number): void;
  windows(batch: readonly WindowInput[]): void;
}

/** An import's writes: straight to the store (an import is all or nothing: import-k6.ts deletes a run that failed). */
export function storeRowWrites(store: RunWriter, targetId: number): RowWrites {
  return { rows: (rows, count) => store.insertRequests(targetId, rows, count), windows: (batch) => store.insertWindows(batch) };
}

export class TargetSink {
  private readonly rows = new Float64Array(BATCH * REQUEST_STRIDE);
  private n = 0;
  private readonly windows = new Map<number, Window>();
  readonly windowMs: number;

  constructor(
    private readonly writes: RowWrites,
    readonly targetId: number,
    readonly acc: TargetAcc,
    /** stored phase index by the accumulator's phase key */
    private readonly phaseIndex: Map<string, number>,
    /** epoch µs the run's times count from; default: its first request's start */
    private readonly t0Override?: number,
  ) {
    const spanMs = Number.isFinite(acc.lastEndUs) ? (acc.lastEndUs - this.t0Us) / 1000 : 0;
    this.windowMs = Math.max(250, Math.ceil(spanMs / WINDOWS_MAX / 250) * 250);
  }

  get t0Us(): number {
    if (this.t0Override !== undefined) return this.t0Override;
    return Number.isFinite(this.acc.firstStartUs) ? this.acc.firstStartUs : 0;
  }

  add(r: K6Request): void {
    const phaseAcc = this.acc.phase(r.phase);
    const phase = this.phaseIndex.get(phaseAcc.key) ?? 0;
    const doneUs = r.endUs - this.t0Us;
    const sentUs = doneUs - r.totalMs * 1000;
    const code = errorCode(r.error);
    const procUs = r.procMs === null ? NaN : r.procMs * 1000;
    const o = this.n * REQUEST_STRIDE;
    const b = this.rows;
    b[o + COL.phaseIdx] = phase;
    b[o + COL.clientIdx] = 0;
    b[o + COL.intendedUs] = sentUs;
    b[o + COL.sentUs] = sentUs;
    b[o + COL.firstByteUs] = NaN;
    b[o + COL.doneUs] = doneUs;
    b[o + COL.status] = r.status;
    b[o + COL.bytes] = 0;
    b[o + COL.error] = code;
    b[o + COL.serverWaitUs] = r.serverWaitMs === null ? NaN : r.serverWaitMs * 1000;
    b[o + COL.serverProcUs] = procUs;
    b[o + COL.templateIdx] = r.endpoint === null ? 0 : phaseAcc.endpoint(r.endpoint);
    b[o + COL.traceSeq] = NaN;
    if (++this.n === BATCH) this.flushRows();

    const win = this.windowAt(doneUs, phase);
    if (r.stream != null) win.acc.streamEnded(r.stream.openGapMs === null ? NaN : r.stream.openGapMs * 1000);
    win.acc.record(code, r.totalMs * 1000, procUs, NaN, NaN);
  }

  /** A stream's message, in the window of its time (`atUs`: epoch µs). */
  addStream(m: K6StreamPoint, atUs: number): void {
    const phase = this.phaseIndex.get(this.acc.phase(m.phase).key) ?? 0;
    const us = m.ms * 1000;
    this.windowAt(atUs - this.t0Us, phase).acc.message(m.figure === 'ttfe' ? us : NaN, m.figure === 'gap' ? us : NaN, m.rttMs === null ? NaN : m.rttMs * 1000);
  }

  private windowAt(doneUs: number, phase: number): Window {
    const w = Math.max(0, Math.floor(doneUs / 1000 / this.windowMs));
    let win = this.windows.get(w);
    if (!win) this.windows.set(w, (win = { acc: new WindowAccumulator(), phaseIndex: phase }));
    win.phaseIndex = phase;
    return win;
  }

  private flushRows(): void {
    if (this.n === 0) return;
    this.writes.rows(this.rows, this.n);
    this.n = 0;
  }

  /** Writes what is left: the last rows, and every window in time order. */
  finish(): void {
    this.flushRows();
    const out: WindowInput[] = [...this.windows.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([w, win]) => {
        const f = win.acc.take();
        return { targetId: this.targetId, tMs: (w + 1) * this.windowMs, phaseIndex: win.phaseIndex, ...f, throughput: f.count / (this.windowMs / 1000), inFlight: 0 };
      });
    this.writes.windows(out);
    this.windows.clear();
  }
}

/** Reads the files again and hands each request to its server run's sink. */
export async function writeRows(files: readonly string[], sinks: ReadonlyMap<string, TargetSink>): Promise<void> {
  const stats = { points: 0, skipped: 0 };
  for (const file of files) {
    for await (const point of readPoints(file, stats)) {
      const m = streamOfPoint(point, basename(file));
      if (m !== null) {
        const sink = sinks.get(targetKey(m.cell, m.server));
        if (sink && sink.acc.source === 'loadscope') sink.addStream(m, point.timeUs);
        continue;
      }
      const r = requestOfPoint(point, basename(file));
      if (r === null || isDropped(r)) continue;
      const sink = sinks.get(targetKey(r.cell, r.server));
      if (sink && sink.acc.source === r.source) sink.add(r);
    }
  }
  for (const sink of sinks.values()) sink.finish();
}
