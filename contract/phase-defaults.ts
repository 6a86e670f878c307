// The values the scenario schema fills in for a phase's fields left out (contract/scenario.ts's
// `.default()`s), in a zod-free module: contract/stored-phase.ts fills them the same way when it
// reads a stored phase without the schema. One owner: the schema takes its defaults from here.

export const PHASE_DEFAULTS = {
  clients: 1,
  timeoutMs: 60_000,
  maxDurationMs: 600_000,
  /** closed and ramping-users phases */
  thinkMs: 0,
  /** ramping-users phases */
  startUsers: 0,
  /** rate phases */
  maxInFlight: 1000,
} as const;
