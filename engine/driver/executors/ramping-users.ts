import type { RampingUsersPhase } from '../../../contract/scenario.js';
import type { ExecutorModule, ExecutorState, GroupPort } from './executor.js';
import { UserRamp } from './user-ramp.js';

/**
 * k6's ramping-vus as a closed loop: the number of users follows the stages (a linear ramp from
 * the previous target to each stage's target over its duration). A user free at `done` goes on
 * (after think time) only while the users alive are within what the ramp allows then; new users
 * join as the ramp rises. So users with a request in flight never exceed the ramp at any send.
 */
class RampingUsers implements ExecutorState {
  readonly scheduled = true;
  readonly queueOwed = false;
  /** users alive: a request in flight or thinking */
  private alive = 0;
  private stopped = false;
  private joinAt = Infinity;

  constructor(
    private readonly ramp: UserRamp,
    private readonly thinkUs: number,
    private readonly stopAt: number,
  ) {}

  start(g: GroupPort): void {
    this.join(g, g.startUs, g.startUs);
  }

  /** New users up to what the ramp allows at `now` (intended when they were due, `due`); then when the next one may join. */
  private join(g: GroupPort, now: number, due: number): void {
    const rel = now - g.startUs;
    while (!this.stopped && now < this.stopAt && this.alive < this.ramp.usersAt(rel) && g.freeSlots() > 0) {
      // each user is intended when the ramp first allowed it: a late turn (a stalled machine) that
      // joins several at once must not date the later ones back to the first one's time
      const allowed = g.startUs + this.ramp.timeUsersReach(this.alive + 1, due - g.startUs);
      this.alive++;
      g.issue(Math.min(now, Math.max(due, allowed)));
    }
    this.scheduleJoin(g, now);
  }

  private scheduleJoin(g: GroupPort, now: number): void {
    this.joinAt = this.stopped ? Infinity : g.startUs + this.ramp.timeUsersReach(this.alive + 1, now - g.startUs);
    if (this.joinAt < this.stopAt) g.wake(this.joinAt);
  }

  /** A user leaves (the ramp came down, or the end): the next join may now come sooner. */
  private leave(g: GroupPort, now: number): void {
    this.alive--;
    this.scheduleJoin(g, now);
  }

  settled(g: GroupPort, done: number, ok: boolean): void {
    const due = done + g.thinkAfterUs(this.thinkUs);
    // the user leaves when the ramp has come down below the users alive, or at the end
    if (this.stopped || due >= this.stopAt || this.alive > this.ramp.usersAt(due - g.startUs)) {
      this.leave(g, done);
      return;
    }
    if (ok && due === done) g.issue(done);
    else {
      g.queue.insertSorted(due);
      g.wake(due);
    }
  }

  pump(g: GroupPort, now: number): void {
    while (g.queue.length > 0 && g.queue.peek() <= now) {
      const due = g.queue.shift();
      if (!this.stopped && due < this.stopAt && this.alive <= this.ramp.usersAt(due - g.startUs)) g.issue(due);
      else this.leave(g, now);
    }
    if (now >= this.joinAt) this.join(g, now, this.joinAt);
  }

  nextDue(g: GroupPort): number {
    const q = g.queue.length > 0 ? g.queue.peek() : Infinity;
    const j = this.joinAt < this.stopAt ? this.joinAt : Infinity;
    return q < j ? q : j;
  }

  pending(): boolean {
    return !this.stopped && this.joinAt < this.stopAt;
  }

  stop(): void {
    this.stopped = true;
    this.joinAt = Infinity;
  }
}

const totalMs = (p: RampingUsersPhase) => p.stages.reduce((sum, s) => sum + s.durationMs, 0);

export const rampingUsers: ExecutorModule<RampingUsersPhase> = {
  kind: 'ramping-users',
  create: (p, { startUs }) => new RampingUsers(new UserRamp(p.startUsers, p.stages), p.thinkMs * 1000, startUs + Math.min(totalMs(p), p.maxDurationMs) * 1000),
};
