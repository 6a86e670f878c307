import type { EngineEvent } from '../../contract/api.js';
import { errorCode } from '../../contract/measurement.js';
import type { LiveWindow } from '../../contract/results.js';
import { WindowAccumulator } from '../driver/measure/accumulators.js';
import type { K6Request } from './import/k6-request.js';
import type { K6StreamPoint } from './import/k6-stream-point.js';

// k6's points as they arrive on its stdout (one k6 process, or the N of `run --instances N`, merged
// into one stream of windows). k6 hands its outputs points in batches (about every second).
//
// A window is COMPLETE, and sent, when either
//   - every instance still running has sent a point that ended after the window's end (each k6
//     writes its points in about the order they ended, so the window has all it will get), or
//   - LAG_MS has passed since the window's end (the bound: an idle or stalled instance, a phase some
//     instance has no users in, never holds the view back longer).
// An instance that exited no longer holds any window. A point that arrives for a window already sent
// (a late batch) goes into the oldest window not yet sent, so no request is dropped from the view.
// The stored timeline is rebuilt from the files afterwards (import), these are only for watching.
// Wait and processing exist only where the server sent Server-Timing (the script's points carry it);
// without it a window has none, rather than k6's whole time called wait (the driver's window accumulator).
// A stream's messages (issue 41) go into the window of their own time, as the native driver's do.

const WINDOW_MS = 500;
const LAG_MS = 2000;

interface Open {
  acc: WindowAccumulator;
  phaseIndex: number | null;
}

export class LiveWindows {
  private readonly open = new Map<number, Open>();
  private readonly phasesSeen = new Set<number>();
  /** per instance still running: the latest end it sent (ms from t0) */
  private readonly latestMs: Map<number, number>;
  /** windows below this were sent */
  private sentBelow = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly runId: number,
    private readonly targetId: number,
    private readonly emit: (e: EngineEvent) => void,
    /** epoch µs of the server run's t0 */
    private readonly t0Us: number,
    private readonly phaseName: (index: number) => string,
    /** how many k6 processes send points (instances 0..n-1) */
    instances = 1,
    private readonly now: () => number = Date.now,
  ) {
    this.latestMs = new Map(Array.from({ length: instances }, (_, i) => [i, -Infinity]));
    this.timer = setInterval(() => this.flush(false), WINDOW_MS);
    this.timer.unref();
  }

  add(r: K6Request, instance = 0): void {
    const tMs = (r.endUs - this.t0Us) / 1000;
    const phaseIndex = r.phase.index;
    if (phaseIndex !== null && !this.phasesSeen.has(phaseIndex)) {
      this.phasesSeen.add(phaseIndex);
      this.emit({ event: 'run:phase', payload: { runId: this.runId, targetId: this.targetId, phaseIndex, name: this.phaseName(phaseIndex), state: 'started', tMs: Math.max(0, tMs - r.totalMs) } });
    }
    const win = this.windowAt(tMs, phaseIndex, instance);
    if (r.stream != null) win.acc.streamEnded(r.stream.openGapMs === null ? NaN : r.stream.openGapMs * 1000);
    win.acc.record(errorCode(r.error), r.totalMs * 1000, r.procMs === null ? NaN : r.procMs * 1000, NaN, NaN);
  }

  /** A stream's message, `atUs` (epoch µs) when k6 stamped it. */
  addStream(m: K6StreamPoint, atUs: number, instance = 0): void {
    const us = m.ms * 1000;
    this.windowAt((atUs - this.t0Us) / 1000, m.phase.index, instance).acc.message(m.figure === 'ttfe' ? us : NaN, m.figure === 'gap' ? us : NaN, m.rttMs === null ? NaN : m.rttMs * 1000);
  }

  private windowAt(tMs: number, phaseIndex: number | null, instance: number): Open {
    const latest = this.latestMs.get(instance);
    if (latest !== undefined && tMs > latest) this.latestMs.set(instance, tMs);
    const w = Math.max(this.sentBelow, Math.floor(tMs / WINDOW_MS));
    let win = this.open.get(w);
    if (!win) this.open.set(w, (win = { acc: new WindowAccumulator(), phaseIndex }));
    win.phaseIndex = phaseIndex;
    return win;
  }

  /** An instance's process started (each of a run's segments starts them all again). */
  instanceStarted(instance: number): void {
    this.latestMs.set(instance, -Infinity);
  }

  /** An instance's process exited: it holds no window any more. */
  instanceEnded(instance: number): void {
    this.latestMs.delete(instance);
    this.flush(false);
  }

  /** Sends the complete windows (all of them at the end). */
  flush(all: boolean): void {
    const nowMs = this.now() - this.t0Us / 1000;
    const heardFrom = Math.min(...this.latestMs.values());
    for (const w of [...this.open.keys()].sort((a, b) => a - b)) {
      const endMs = (w + 1) * WINDOW_MS;
      if (!all && endMs > nowMs - LAG_MS && endMs > heardFrom) break;
      const win = this.open.get(w)!;
      this.open.delete(w);
      this.sentBelow = w + 1;
      const f = win.acc.take();
      const payload: LiveWindow = { runId: this.runId, targetId: this.targetId, tMs: endMs, phaseIndex: win.phaseIndex, ...f, throughput: f.count / (WINDOW_MS / 1000), inFlight: 0, queued: 0 };
      this.emit({ event: 'run:window', payload });
    }
  }

  finish(endMs: number): void {
    clearInterval(this.timer);
    this.flush(true);
    for (const phaseIndex of this.phasesSeen) {
      this.emit({ event: 'run:phase', payload: { runId: this.runId, targetId: this.targetId, phaseIndex, name: this.phaseName(phaseIndex), state: 'ended', tMs: endMs } });
    }
  }
}
