import type { SequentialPhase } from '../../../contract/scenario.js';
import { ClosedLoop } from './closed-loop.js';
import type { ExecutorModule } from './executor.js';

/** One request after another: a closed loop of one user. */
export const sequential: ExecutorModule<SequentialPhase> = {
  kind: 'sequential',
  create: (p, { startUs }) => new ClosedLoop(1, p.count, 0, startUs + p.maxDurationMs * 1000),
};
