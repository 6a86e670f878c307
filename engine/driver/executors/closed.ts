import type { ClosedPhase } from '../../../contract/scenario.js';
import type { ExecutorModule } from './executor.js';
import { ClosedLoop } from './closed-loop.js';

type Closed = ClosedPhase;

/** Closed loop: `users` users, each sending its next request when the last one ends (+ think). */
export const closed: ExecutorModule<Closed> = {
  kind: 'closed',
  create: (p, { startUs }) => {
    let stopAt = startUs + p.maxDurationMs * 1000;
    if (p.durationMs !== undefined) stopAt = Math.min(stopAt, startUs + p.durationMs * 1000);
    return new ClosedLoop(p.users, p.count ?? Infinity, p.thinkMs * 1000, stopAt);
  },
};
