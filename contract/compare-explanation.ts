import { z } from 'zod';
import { Finding } from './diagnosis.js';

// What a comparison says changed (issue 38: "Compare and --baseline explain the difference"): for
// each paired server run / phase / endpoint whose figure moved past the noise, the figure, by how
// much, which parts of the time moved with it, and what that reads as. The items are findings
// (contract/diagnosis.ts) so every view words them the same way; engine/compare/explain-difference.ts
// makes them, `compare`, `run --baseline`, the Compare page and the comparison report show them.
//
//   part that carried the move      rule                reading
//   server wait (ttfb - processing) moved-queueing      requests queue inside the server
//   processing                      moved-slower        each request takes the server longer
//   client queue (lag)              moved-client-queue  Loadscope's own queue: too few connections
//   transfer                        moved-transfer      the response's bytes take longer to arrive
//   ttfb, no Server-Timing          moved-server-time   the server's time, not splittable
//   no one part                     moved-unsplit       spread over the parts
//   throughput alone                moved-throughput    the load offered changed
//   error rate                      moved-errors        more requests failed
//   nothing past the noise          no-change           (kind healthy)
//   too short / variable to judge   cannot-judge        (kind cannot-answer)

export const DIFFERENCE_RULES = [
  'moved-queueing',
  'moved-slower',
  'moved-client-queue',
  'moved-transfer',
  'moved-server-time',
  'moved-unsplit',
  'moved-throughput',
  'moved-errors',
  'no-change',
  'cannot-judge',
] as const;
export const DifferenceRule = z.enum(DIFFERENCE_RULES);
export type DifferenceRule = z.infer<typeof DifferenceRule>;

export const DifferenceFinding = Finding.extend({
  rule: DifferenceRule,
  /** the run set against the first: its index in the comparison (1 = B) and its id */
  run: z.number(),
  runId: z.number(),
  /** the first run's id (the baseline of `run --baseline`) */
  baselineRunId: z.number(),
});
export type DifferenceFinding = z.infer<typeof DifferenceFinding>;
