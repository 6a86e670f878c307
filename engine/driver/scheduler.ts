import { nowUs } from './clock.js';

/** Something with work due at times on the clock (open-loop arrivals, users coming back from think time). */
export interface Timed {
  /** do everything due at or before now (µs) */
  pump(now: number): void;
  /** µs of the next due work, Infinity if none */
  nextDue(): number;
}

// One timer for all timed work of the worker. Node timers have ~1 ms granularity, so work due within
// SPIN_US is run from setImmediate turns (which still let I/O in between), and work further out from a
// setTimeout that fires a little early. Never sends before the due time: lag >= 0 by construction.
const SPIN_US = 1500;

export class Scheduler {
  private readonly items = new Set<Timed>();
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private immediate: NodeJS.Immediate | null = null;

  add(t: Timed): void {
    this.items.add(t);
    this.wake(t.nextDue());
  }

  remove(t: Timed): void {
    this.items.delete(t);
  }

  /** Something became due at `due` µs: make sure the scheduler runs by then. */
  wake(due: number): void {
    if (this.immediate !== null || due >= this.timerDue) return;
    this.arm(due);
  }

  stop(): void {
    this.items.clear();
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    this.timerDue = Infinity;
  }

  private readonly tick = (): void => {
    this.immediate = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
    const now = nowUs();
    let next = Infinity;
    for (const t of this.items) {
      t.pump(now);
      const d = t.nextDue();
      if (d < next) next = d;
    }
    if (next !== Infinity) this.arm(next);
  };

  private arm(due: number): void {
    const delayUs = due - nowUs();
    if (delayUs <= SPIN_US) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.timerDue = Infinity;
      if (this.immediate === null) this.immediate = setImmediate(this.tick);
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(this.tick, (delayUs - SPIN_US) / 1000 + 0.5);
  }
}
