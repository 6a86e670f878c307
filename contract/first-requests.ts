import { z } from 'zod';

// Each phase's users' first requests, read back from the raw rows for the diagnosis's late-admission
// rule (issue 38): the rows intended at the phase's first intended time. A closed loop's users all
// send their first request at the phase's start (engine/driver/executors/closed-loop.ts), and every
// later request is intended when its user was free again, so in a closed phase these are exactly the
// users' first requests; in a burst they are all of its requests, in a rate phase its first arrival.

/** At most this many first requests per phase are read back (a phase has at most 10,000 users per client group). */
export const FIRST_REQUESTS_MAX = 10_000;

export const FirstRequest = z.object({
  /** done - intended, ms */
  totalMs: z.number(),
  /** the server's Server-Timing proc, ms; null without it */
  processingMs: z.number().nullable(),
});
export type FirstRequest = z.infer<typeof FirstRequest>;

export const PhaseFirstRequests = z.object({
  targetId: z.number(),
  phaseIndex: z.number(),
  /** the first requests stored: raw rows are capped and sampled, so maybe fewer than the users */
  stored: z.number(),
  /** at most FIRST_REQUESTS_MAX of them */
  requests: z.array(FirstRequest).max(FIRST_REQUESTS_MAX),
});
export type PhaseFirstRequests = z.infer<typeof PhaseFirstRequests>;
