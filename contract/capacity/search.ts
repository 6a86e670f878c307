import type { PhaseResult } from '../results.js';

// A capacity search: offer an open-loop rate for one step, judge the step against stated limits,
// and choose the next rate: double while every limit holds, then bisect between the highest rate that
// held and the lowest that broke, until the bracket is narrower than the tolerance. Pure functions:
// the engine runs the steps, the CLI, the UI and reports judge them the same way from stored phases.
//
// The generator's own lag is judged first: when Loadscope could not send on schedule although a
// connection slot was free, the step says nothing about the server, and the search stops saying the
// generator was the limit. Lag while arrivals queued for a slot (every slot busy: maxInFlight
// reached) is the server's doing and is judged by the other limits.

export type CapacityLimit = 'latency' | 'errors' | 'throughput' | 'generator';

export interface CapacityLimits {
  /** the latency bound: this percentile of this time must stay below maxMs */
  latency: { sample: 'total' | 'wait' | 'processing'; stat: 'p50' | 'p90' | 'p99'; maxMs: number };
  /** errors / requests above this breaks the step */
  maxErrorRate: number;
  /** achieved / offered below this breaks the step (the server fell behind the offered rate) */
  minAchievedRatio: number;
  /** the generator's schedule lag p90 above this means the generator, not the server, was the limit */
  maxLagMs: number;
}

export const DEFAULT_LIMITS: Omit<CapacityLimits, 'latency'> = { maxErrorRate: 0.01, minAchievedRatio: 0.95, maxLagMs: 5 };

export interface SearchPlan {
  /** the first step's rate (req/s) */
  startRate: number;
  /** never offer more than this (req/s) */
  maxRate: number;
  /** rate multiplier while every limit holds */
  factor: number;
  /** stop when (lowest broken - highest held) / highest held is at most this */
  tolerance: number;
  /** at most this many steps */
  maxSteps: number;
}

export type StepVerdict = { held: true } | { held: false; limit: CapacityLimit; detail: string };

export interface CapacityStep {
  /** the offered rate (req/s) */
  rate: number;
  verdict: StepVerdict;
}

/**
 * Judges one step's stored phase against the limits (generator first: its lag voids the rest).
 * `queuedMax`: the most arrivals waiting for a free slot in any of the step's windows.
 */
export function judgeStep(offeredRate: number, phase: PhaseResult, limits: CapacityLimits, queuedMax = 0): StepVerdict {
  const fmt = (v: number) => Number(v.toPrecision(3)).toString();
  // p90, not p99: a step of a few hundred requests has a p99 of one or two sends, and one hiccup
  // (the first sends of a fresh worker) must not end a search as the generator's limit
  if (phase.lag.p90 > limits.maxLagMs && queuedMax === 0) return { held: false, limit: 'generator', detail: `schedule lag p90 ${fmt(phase.lag.p90)} ms > ${limits.maxLagMs} ms` };
  const errors = phase.count - phase.ok;
  const errorRate = phase.count > 0 ? errors / phase.count : 0;
  if (errorRate > limits.maxErrorRate) return { held: false, limit: 'errors', detail: `errors ${fmt(errorRate * 100)} % > ${fmt(limits.maxErrorRate * 100)} %` };
  const achieved = phase.throughput / offeredRate;
  if (achieved < limits.minAchievedRatio) return { held: false, limit: 'throughput', detail: `achieved ${fmt(phase.throughput)} req/s of ${fmt(offeredRate)} offered` };
  const { sample, stat, maxMs } = limits.latency;
  const value = phase[sample]?.[stat];
  if (value === undefined) return { held: false, limit: 'latency', detail: `no ${sample} times measured` };
  if (value > maxMs) return { held: false, limit: 'latency', detail: `${sample} ${stat} ${fmt(value)} ms > ${maxMs} ms` };
  return { held: true };
}

/** The bracket so far: the highest rate that held below the lowest rate that broke. */
function bracket(steps: readonly CapacityStep[]): { held: number | null; broke: number | null } {
  const broken = steps.filter((s) => !s.verdict.held).map((s) => s.rate);
  const broke = broken.length > 0 ? Math.min(...broken) : null;
  const held = steps.filter((s) => s.verdict.held && (broke === null || s.rate < broke)).map((s) => s.rate);
  return { held: held.length > 0 ? Math.max(...held) : null, broke };
}

/** The next rate to offer, or null when the search is over. */
export function nextRate(steps: readonly CapacityStep[], plan: SearchPlan): number | null {
  if (steps.length === 0) return Math.min(plan.startRate, plan.maxRate);
  if (steps.length >= plan.maxSteps) return null;
  if (steps.some((s) => !s.verdict.held && s.verdict.limit === 'generator')) return null;
  const { held, broke } = bracket(steps);
  if (broke === null) {
    const last = steps[steps.length - 1]!.rate;
    return last >= plan.maxRate ? null : Math.min(last * plan.factor, plan.maxRate);
  }
  if (held === null) {
    // even the first step broke: step down, but not below a factor^3 under the start
    const down = broke / plan.factor;
    return down < plan.startRate / plan.factor ** 3 ? null : down;
  }
  if ((broke - held) / held <= plan.tolerance) return null;
  return round((held + broke) / 2);
}

const round = (r: number) => (r >= 100 ? Math.round(r) : Number(r.toPrecision(3)));

export interface CapacityResult {
  /** the highest offered rate that held below every broken one (req/s); null: none held */
  sustainable: number | null;
  /** the bracket it lies in: [highest held, lowest broken] (null upper: nothing broke) */
  interval: [number | null, number | null];
  /** what broke at the lowest broken rate; 'max rate' when nothing broke up to the plan's maximum */
  limitedBy: CapacityLimit | 'max rate';
  /** the step (index into steps) where the lowest broken rate was offered: the knee; null when nothing broke */
  kneeStep: number | null;
  detail: string;
}

export function capacityOf(steps: readonly CapacityStep[]): CapacityResult {
  const { held, broke } = bracket(steps);
  if (broke === null) return { sustainable: held, interval: [held, null], limitedBy: 'max rate', kneeStep: null, detail: 'no limit broke up to the highest rate offered' };
  const kneeStep = steps.findIndex((s) => !s.verdict.held && s.rate === broke);
  const v = steps[kneeStep]!.verdict as Extract<StepVerdict, { held: false }>;
  const generator = steps.find((s) => !s.verdict.held && s.verdict.limit === 'generator');
  if (generator) {
    const g = generator.verdict as Extract<StepVerdict, { held: false }>;
    return { sustainable: held, interval: [held, broke], limitedBy: 'generator', kneeStep, detail: `the load generator could not keep its schedule at ${generator.rate} req/s (${g.detail}): the server's capacity is at least ${held ?? 0} req/s, not measured beyond` };
  }
  return { sustainable: held, interval: [held, broke], limitedBy: v.limit, kneeStep, detail: `${v.detail} at ${broke} req/s` };
}
