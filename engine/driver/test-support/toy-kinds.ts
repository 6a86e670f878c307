import { phaseKinds, type PhaseBase, type PhaseKind } from '../../../contract/phase.js';
import { executorModules, type ExecutorModule } from '../executors/index.js';

// An executor made in a test (the toy executor, the deadline test's endless one), added where a
// built-in one is listed: its facts (contract/phase.ts) and its state machine (executors/index.ts).
// In this thread only: a driver worker's own modules never see it, so such a test runs the Runner
// in-process.
export function addToyExecutor<P extends PhaseBase>(kind: PhaseKind<P>, module: ExecutorModule<P>): void {
  phaseKinds.add(kind.executor, kind);
  executorModules.add(module.kind, module);
}
