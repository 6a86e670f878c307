import { z } from 'zod';
import { ErrorKind } from './results.js';

// A run's slowest requests with their trace ids (issue 38): per server run and phase, the N stored
// rows with the highest total (done - intended, contract/measurement.ts), so the server's own traces
// of exactly those requests can be looked up. Read from the stored raw rows: a run over its raw cap
// keeps a uniform sample of them (db/request-writer.ts), so its slowest are the sample's (`sampled`).

/** the most requests a group lists (the call's and the CLI's bound) */
export const MAX_SLOWEST = 100;
/** what `show --slowest` and the stored run's page list when no number is given */
export const DEFAULT_SLOWEST = 10;

export const SlowRequest = z.object({
  /** the endpoint's name (its template's), null where the phase stored none */
  endpoint: z.string().nullable(),
  /** intended send time, ms from the server run's t0 */
  atMs: z.number(),
  totalMs: z.number(),
  /** wait and processing as Server-Timing split them; null without it */
  waitMs: z.number().nullable(),
  processingMs: z.number().nullable(),
  status: z.number(),
  error: ErrorKind.nullable(),
  /** the W3C trace id it was sent with (32 hex); null when its phase did not send traceparent */
  traceId: z.string().nullable(),
});
export type SlowRequest = z.infer<typeof SlowRequest>;

export const SlowestGroup = z.object({
  targetId: z.number(),
  /** the server run's name (contract/results.ts TargetResult.name) */
  server: z.string(),
  phaseIndex: z.number(),
  phase: z.string(),
  /** slowest first */
  requests: z.array(SlowRequest),
  /** the server run's rows were sampled to fit the run's cap: these are the slowest of the rows kept */
  sampled: z.boolean(),
});
export type SlowestGroup = z.infer<typeof SlowestGroup>;

export const SlowestRequest = z.strictObject({ runId: z.number().int().positive(), limit: z.number().int().min(1).max(MAX_SLOWEST).default(DEFAULT_SLOWEST) });
