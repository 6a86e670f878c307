import type { Executor, Phase } from '../../../contract/scenario.js';
import { burst } from './burst/burst.js';
import { closed } from './closed/closed.js';
import type { ExecutorModule } from './executor.js';
import { rampingUsers } from './ramping-users/ramping-users.js';
import { rate } from './rate/rate.js';
import { sequential } from './sequential/sequential.js';

export type { ExecutorModule, ExecutorState, GroupPort, ProgressPlan } from './executor.js';

// Every executor by its `executor` name. A new executor is a folder here, one line below, and its
// phase schema in contract/scenario.ts.
const EXECUTORS: { readonly [K in Executor]: ExecutorModule<Extract<Phase, { executor: K }>> } = {
  burst,
  closed,
  rate,
  sequential,
  'ramping-users': rampingUsers,
};

/** The module of a phase's executor. */
export function executorOf<P extends Phase>(phase: P): ExecutorModule<P> {
  return EXECUTORS[phase.executor] as unknown as ExecutorModule<P>;
}
