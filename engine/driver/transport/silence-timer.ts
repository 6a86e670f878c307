// A stream's idle limit: fires once no message came for limitMs, on performance.now(), the clock the
// slot measures gaps on (clock.ts). setTimeout alone cannot promise that: libuv counts timers in whole
// ms of its loop time, so now and then one fires a fraction of a ms before its delay, and a session
// ended for a silence of its limit would store an open gap just under that limit, a figure that
// contradicts its own error (ws-stall.test.ts failed so in CI). Here a timer that fires early sleeps
// again for what is left; touch() only stores the time, so a busy stream arms no timer per message.

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
