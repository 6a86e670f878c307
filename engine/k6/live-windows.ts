import type { EngineEvent } from '../../contract/api.js';
import { errorCode } from '../../contract/measurement.js';
import type { LiveWindow } from '../../contract/results.js';
import { WindowAccumulator } from '../driver/measure/accumulators.js';
import type { K6Request } from './import/k6-request.js';

// k6's points as they arrive on its stdout, grouped into the live view's windows. k6 hands its
// outputs points in batches (about every second), so a window is sent once it is LAG_MS old; the
// stored timeline is rebuilt from the whole file afterwards (import), these are only for watching.
// Wait and processing exist only where the server sent Server-Timing (the script's points carry it);
// without it a window has none, rather than k6's whole time called wait (the driver's window accumulator).

const WINDOW_MS = 500;
const LAG_MS = 2000;

interface Open {
  acc: WindowAccumulator;
  phaseIndex: number | null;
}

export class LiveWindows {
  private readonly open = new Map<number, Open>();
  private readonly phasesSeen = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly runId: number,
    private readonly targetId: number,
    private readonly emit: (e: EngineEvent) => void,
    /** epoch µs of the server run's t0 */
    private readonly t0Us: number,
    private readonly phaseName: (index: number) => string,
  ) {
    this.timer = setInterval(() => this.flush(false), WINDOW_MS);
    this.timer.unref();
  }

  add(r: K6Request): void {
    const tMs = (r.endUs - this.t0Us) / 1000;
    const phaseIndex = r.phase.index;
    if (phaseIndex !== null && !this.phasesSeen.has(phaseIndex)) {
      this.phasesSeen.add(phaseIndex);
      this.emit({ event: 'run:phase', payload: { runId: this.runId, targetId: this.targetId, phaseIndex, name: this.phaseName(phaseIndex), state: 'started', tMs: Math.max(0, tMs - r.totalMs) } });
    }
    const w = Math.max(0, Math.floor(tMs / WINDOW_MS));
    let win = this.open.get(w);
    if (!win) this.open.set(w, (win = { acc: new WindowAccumulator(), phaseIndex }));
    win.phaseIndex = phaseIndex;
    win.acc.record(errorCode(r.error), r.totalMs * 1000, r.procMs === null ? NaN : r.procMs * 1000, NaN, NaN);
  }

  /** Sends the windows old enough (all of them at the end). */
  flush(all: boolean): void {
    const nowMs = Date.now() - this.t0Us / 1000;
    for (const w of [...this.open.keys()].sort((a, b) => a - b)) {
      const endMs = (w + 1) * WINDOW_MS;
      if (!all && endMs > nowMs - LAG_MS) break;
      const win = this.open.get(w)!;
      this.open.delete(w);
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
