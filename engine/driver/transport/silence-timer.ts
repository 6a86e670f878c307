// A stream's idle limit: fires once no message came for limitMs, measured on performance.now(),
// the clock the slot measures gaps on (clock.ts). setTimeout alone cannot promise that: libuv counts
// from its loop time, cached in whole ms at the start of the loop's turn, so a timer armed late in a
// turn fires up to a turn early, and a session ended "after 300 ms of silence" would store an open
// gap of 299.7 ms (a CI failure of ws-stall.test.ts at 87467c7). Here a timer that fires early
// sleeps again for what is left; touch() only stores the time, so a busy stream arms no timer per
// message.

export class SilenceTimer {
  private lastAt: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly limitMs: number,
    private readonly onSilent: () => void,
  ) {
    this.lastAt = performance.now();
    this.arm(limitMs);
  }

  /** a message came: the silence counts from now. Call it after the slot heard the message, so the
   *  slot's time of it is never later than this one's */
  touch(): void {
    this.lastAt = performance.now();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(this.check, Math.max(1, Math.ceil(ms)));
  }

  private readonly check = (): void => {
    this.timer = null;
    const left = this.lastAt + this.limitMs - performance.now();
    if (left > 0) return this.arm(left);
    this.onSilent();
  };
}
