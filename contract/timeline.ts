import { z } from 'zod';
import { STREAM_PROTOCOLS } from './stream-names.js';

// The timeline preview of a scenario, drawn before anything runs: per matrix cell, per server, its
// phases on the server run's own time axis (each server run starts its clock at its first phase).

export const PlannedPhase = z.object({
  index: z.number(),
  name: z.string(),
  executor: z.string(),
  /** ms from the server run start */
  startMs: z.number(),
  /** null: it lasts until its requests are done (burst, count-bound closed and sequential phases) */
  durationMs: z.number().nullable(),
  /** null when it depends on the server's speed (a timed closed phase) */
  expectedRequests: z.number().nullable(),
  /** what drives it: "100 → 500 req/s", "20 users", "200 at once", "50 one after another" */
  load: z.string(),
  /** a ramp (rate → rampTo, or ramping-users stages): the load at each corner, ms from the phase start */
  ramp: z
    .object({ unit: z.enum(['req/s', 'users']), points: z.array(z.object({ atMs: z.number(), value: z.number() })) })
    .optional(),
  /** the stream protocols its templates open (contract/stream-names.ts phaseStreams): each such request is a stream, held until it ends */
  streams: z.array(z.enum(STREAM_PROTOCOLS)).optional(),
  /** a flow phase: its steps' endpoint names, in the order each user does them */
  steps: z.array(z.string()).optional(),
});
export type PlannedPhase = z.infer<typeof PlannedPhase>;

export const TimelinePlan = z.object({
  quick: z.boolean(),
  cells: z.array(
    z.object({
      index: z.number(),
      /** the cell's full key=value text (hover) */
      label: z.string(),
      /** its short name ("cores 1 · 10 req", contract/cells.ts cellNames); '' for the only cell */
      name: z.string(),
      servers: z.array(z.object({ label: z.string(), phases: z.array(PlannedPhase) })),
    }),
  ),
});
export type TimelinePlan = z.infer<typeof TimelinePlan>;
