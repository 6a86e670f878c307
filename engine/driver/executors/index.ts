import type { PhaseBase } from '../../../contract/phase.js';
import { kindRegistry, type KindRegistry } from '../../../contract/kind-registry.js';
import type { Executor, Phase } from '../../../contract/scenario.js';
import { burst } from './burst.js';
import { closed } from './closed.js';
import type { ExecutorModule } from './executor.js';
import { rampingUsers } from './ramping-users.js';
import { rate } from './rate.js';
import { sequential } from './sequential.js';

export type { ExecutorModule, ExecutorState, GroupPort } from './executor.js';

// Every executor's state machine by its `executor` name. A new executor is its phase schema in
// contract/scenario.ts, its entry in contract/phase.ts, a file here (executors/<name>.ts) and one line below.
const BUILT_IN: { readonly [K in Executor]: ExecutorModule<Extract<Phase, { executor: K }>> } = {
  burst,
  closed,
  rate,
  sequential,
  'ramping-users': rampingUsers,
};
/** Every executor's state machine module by name: the built-in ones above (a test may add a toy in-process). */
export const executorModules: KindRegistry = kindRegistry(BUILT_IN);

/** The state machine module of a phase's executor. */
export function executorOf<P extends PhaseBase>(phase: P): ExecutorModule<P> {
  return executorModules.get(phase.executor) as ExecutorModule<P>;
}
