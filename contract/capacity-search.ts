import { z } from 'zod';

// The capacity block of a scenario (contract/scenario.ts re-exports it), in a module of its own:
// `show` judges a stored run's capacity search (contract/capacity/run-capacity.ts) and must not build
// the whole scenario schema to read this one block (issue 42).

/**
 * A capacity search (issue 17): phases[0], a rate phase, is the step; its rate is the first rate
 * offered and its durationMs each step's length. The rate doubles (factor) while every limit holds,
 * then bisects between the highest rate that held and the lowest that broke (contract/capacity/).
 */
export const CapacitySearch = z.strictObject({
  maxRate: z.number().min(0.1).max(1_000_000).default(20_000).describe('rate mode (phases[0] a rate phase): never offer more than this (req/s)'),
  maxUsers: z.number().int().min(1).max(10_000).default(1000).describe('users mode (phases[0] a closed phase): never run more users than this'),
  factor: z.number().min(1.1).max(10).default(2).describe('load multiplier while every limit holds'),
  tolerance: z.number().min(0.01).max(1).default(0.1).describe('stop when (lowest broken - highest held) / highest held is at most this'),
  maxSteps: z.number().int().min(1).max(50).default(12).describe('at most this many steps per server'),
  maxDurationMs: z.number().int().min(1000).max(86_400_000).default(600_000).describe("no step starts whose arrivals would end after this, per server (its last answers get at most the phase's timeoutMs more)"),
  latency: z
    .strictObject({
      sample: z.enum(['total', 'wait', 'processing']).default('total'),
      stat: z.enum(['p50', 'p90', 'p99']).default('p99'),
      maxMs: z.number().positive().describe('the step breaks when this percentile is above it'),
    })
    .describe('the latency bound'),
  maxErrorRate: z.number().min(0).max(1).default(0.01).describe('errors / requests above this breaks a step'),
  minAchievedRatio: z.number().min(0).max(1).default(0.95).describe('rate mode: achieved / offered rate below this breaks a step; users mode: throughput below this share of the best held with fewer users breaks it'),
  maxLagMs: z.number().positive().default(5).describe("the generator's schedule lag p90 (users mode: p50) above this stops the search: the generator was the limit"),
});
export type CapacitySearch = z.output<typeof CapacitySearch>;
