import type { RatePhase } from '../../../contract/scenario.js';
import { ArrivalProcess, Prng } from '../arrivals.js';
import type { ExecutorModule, ExecutorState, GroupPort } from './executor.js';

/**
 * Open loop: arrivals at `rate`/s (a linear ramp to `rampTo`), uniform or poisson. Every arrival
 * keeps its scheduled time as intended, sent at once on a free slot or queued at the client (and
 * that queueing counts); queued arrivals still owed when the phase stops are recorded as timeouts.
 */
class Rate implements ExecutorState {
  readonly scheduled = true;
  readonly queueOwed = true;
  private nextArrival = Infinity;

  constructor(private readonly arrivals: ArrivalProcess) {}

  start(g: GroupPort): void {
    this.nextArrival = g.startUs + this.arrivals.next();
    this.pump(g, g.startUs);
  }

  settled(g: GroupPort): void {
    if (g.queue.length > 0) g.issue(g.queue.shift());
  }

  pump(g: GroupPort, now: number): void {
    while (this.nextArrival <= now) {
      if (g.freeSlots() > 0) g.issue(this.nextArrival);
      else g.queue.push(this.nextArrival);
      this.nextArrival = g.startUs + this.arrivals.next();
    }
  }

  nextDue(): number {
    return this.nextArrival;
  }

  pending(): boolean {
    return this.nextArrival !== Infinity;
  }

  stop(): void {
    this.nextArrival = Infinity;
  }
}

export const rate: ExecutorModule<RatePhase> = {
  kind: 'rate',
  create: (p, { seed }) => new Rate(new ArrivalProcess(p.rate, p.rampTo, p.durationMs, p.arrivals === 'poisson' ? new Prng(seed) : null)),
};
