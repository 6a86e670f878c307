import type { ExecutorState, GroupPort } from './executor.js';

/**
 * The closed-loop state machine shared by `closed` and `sequential`: `users` users, each with one
 * request in flight; a user free at `done` sends its next request at done + think, until `limit`
 * requests were planned or issuing stops. After an error the next request goes through the
 * scheduler, so a failing target cannot recurse through synchronous dispatch errors.
 */
export class ClosedLoop implements ExecutorState {
  private planned = 0;
  private stopped = false;
  readonly queueOwed = false;
  readonly scheduled = true;

  constructor(
    private readonly users: number,
    private readonly limit: number,
    private readonly thinkUs: number,
    private readonly stopIssuingAt: number,
  ) {}

  start(g: GroupPort): void {
    const first = Math.min(this.users, this.limit);
    for (let i = 0; i < first && !this.stopped; i++) {
      this.planned++;
      g.issue(g.startUs);
    }
  }

  settled(g: GroupPort, done: number, ok: boolean): void {
    const think = g.thinkAfterUs(this.thinkUs);
    if (this.stopped || this.planned >= this.limit || done + think >= this.stopIssuingAt) return;
    this.planned++;
    if (ok && think === 0) g.issue(done);
    else {
      const due = done + think;
      g.queue.insertSorted(due);
      g.wake(due);
    }
  }

  pump(g: GroupPort, now: number): void {
    while (g.queue.length > 0 && g.queue.peek() <= now) {
      const due = g.queue.shift();
      if (due < this.stopIssuingAt && !this.stopped) g.issue(due);
    }
  }

  nextDue(g: GroupPort): number {
    return g.queue.length > 0 ? g.queue.peek() : Infinity;
  }

  pending(): boolean {
    return false;
  }

  stop(): void {
    this.stopped = true;
  }
}
