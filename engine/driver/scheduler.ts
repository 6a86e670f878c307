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
//
// The setImmediate turns do not spin hot: each turn that is still early sleeps the thread for at most
// NAP_US (Atomics.wait), then polls I/O again. A thread that spins stays runnable all the time, and
// when it shares a core (a pinned generator: the main thread, V8's compiler and GC threads) the
// kernel makes it wait out another thread's whole slice, 2-10 ms of schedule lag; a thread that
// mostly sleeps is woken ahead of them. A response that arrives during a nap is read at most NAP_US
// later, so the turns nap only while no request is in flight (then nothing can arrive but a
// connection's close) and stay hot while responses are awaited, to read them the moment they come.
// (Measured pinned to one core, open loop against nginx: bench/agreement.mjs; docs/performance.md.)
const SPIN_US = 1500;
const NAP_US = 50;
const napCell = new Int32Array(new SharedArrayBuffer(4));

export class Scheduler {
  private readonly items = new Set<Timed>();

  /** inFlight: requests sent and not yet answered (the turns nap only when there are none) */
  constructor(private readonly inFlight: () => number = () => 0) {}

  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private immediate: NodeJS.Immediate | null = null;
  /** the earliest due time the pending setImmediate turn serves (µs) */
  private spinDue = 0;

  add(t: Timed): void {
    this.items.add(t);
    this.wake(t.nextDue());
  }

  remove(t: Timed): void {
    this.items.delete(t);
  }

  /** Something became due at `due` µs: make sure the scheduler runs by then. */
  wake(due: number): void {
    if (this.immediate !== null) {
      // a turn is pending: it must not nap past this
      if (due < this.spinDue) this.spinDue = due;
      return;
    }
    if (due >= this.timerDue) return;
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

  /** A setImmediate turn: nap while the next work is more than a nap away, else run it. */
  private readonly turn = (): void => {
    const early = this.spinDue - nowUs();
    if (early > NAP_US && this.inFlight() === 0) {
      Atomics.wait(napCell, 0, 0, Math.min(early - NAP_US, NAP_US) / 1000);
      this.immediate = setImmediate(this.turn);
      return;
    }
    this.tick();
  };

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
      this.spinDue = this.immediate === null ? due : Math.min(this.spinDue, due);
      if (this.immediate === null) this.immediate = setImmediate(this.turn);
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(this.tick, (delayUs - SPIN_US) / 1000 + 0.5);
  }
}
