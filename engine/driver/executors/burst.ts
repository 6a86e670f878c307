import type { BurstPhase } from '../../../contract/scenario.js';
import type { ExecutorModule, ExecutorState, GroupPort } from './executor.js';

/** `count` requests at once at the phase start, nothing after. */
class Burst implements ExecutorState {
  readonly scheduled = false;
  readonly queueOwed = false;
  private stopped = false;

  constructor(private readonly count: number) {}

  start(g: GroupPort): void {
    for (let i = 0; i < this.count && !this.stopped; i++) g.issue(g.startUs);
  }

  settled(): void {}
  pump(): void {}
  nextDue(): number {
    return Infinity;
  }
  pending(): boolean {
    return false;
  }
  stop(): void {
    this.stopped = true;
  }
}

export const burst: ExecutorModule<BurstPhase> = {
  kind: 'burst',
  create: (p) => new Burst(p.count),
};
