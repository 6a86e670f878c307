import type { PhaseResult } from '../results.js';

// A capacity search: offer a load for one step, judge the step against stated limits, and choose the
// next load: double while every limit holds, then bisect between the highest load that held and the
// lowest that broke, until the bracket is narrower than the tolerance. The load is an open-loop rate
// (req/s) or, as the second mode, a number of closed-loop users (whole numbers). Pure functions: the
// engine runs the steps, the CLI, the UI and reports judge them the same way from stored phases.
//
// The generator's own lag is judged first: when Loadscope could not send on schedule although a
// connection slot was free, the step says nothing about the server, and the search stops saying the
// generator was the limit. Lag while arrivals queued for a slot (every slot busy: maxInFlight
// reached) is the server's doing and is judged by the other limits.

export type CapacityLimit = 'latency' | 'errors' | 'throughput' | 'generator';

/** What a search steps: the offered open-loop rate, or the number of closed-loop users. */
export type CapacityMode = 'rate' | 'users';

/** The unit of a mode's offered load, as tables and axes name it. */
export const OFFERED_UNIT: Record<CapacityMode, string> = { rate: 'req/s', users: 'users' };

/** What a mode's offered load is, in words: chart titles and headings. */
export const OFFERED_LOAD: Record<CapacityMode, string> = { rate: 'the offered rate', users: 'the closed-loop users' };

/** What a mode's capacity is, in words: the section headings of the CLI and the reports. */
export const CAPACITY_MEANS: Record<CapacityMode, string> = {
  rate: 'the highest offered open-loop rate that held every limit, below the lowest that broke',
  users: 'the most closed-loop users that held every limit, below the fewest that broke',
};

/** A run's search mode, read from its servers' results (all share one scenario, so one mode). */
export const modeOf = (servers: readonly { capacity: { mode: CapacityMode } }[]): CapacityMode => servers[0]?.capacity.mode ?? 'rate';

export interface CapacityLimits {
  /** the latency bound: this percentile of this time must stay below maxMs */
  latency: { sample: 'total' | 'wait' | 'processing'; stat: 'p50' | 'p90' | 'p99'; maxMs: number };
  /** errors / requests above this breaks the step */
  maxErrorRate: number;
  /**
   * rate mode: achieved / offered below this breaks the step (the server fell behind the offered rate);
   * users mode: throughput below this share of the best that held with fewer users (adding users lost throughput)
   */
  minAchievedRatio: number;
  /** the generator's schedule lag p90 (users mode: p50) above this means the generator, not the server, was the limit */
  maxLagMs: number;
}

export const DEFAULT_LIMITS: Omit<CapacityLimits, 'latency'> = { maxErrorRate: 0.01, minAchievedRatio: 0.95, maxLagMs: 5 };

export interface SearchPlan {
  mode: CapacityMode;
  /** the first step's load (req/s or users) */
  start: number;
  /** never offer more than this (req/s or users) */
  max: number;
  /** load multiplier while every limit holds */
  factor: number;
  /** stop when (lowest broken - highest held) / highest held is at most this */
  tolerance: number;
  /** at most this many steps */
  maxSteps: number;
}

export type StepVerdict = { held: true } | { held: false; limit: CapacityLimit; detail: string };

export interface CapacityStep {
  /** the offered load: req/s (rate mode) or users (users mode) */
  offered: number;
  /** the achieved throughput (req/s) */
  throughput: number;
  verdict: StepVerdict;
}

const fmt = (v: number) => Number(v.toPrecision(3)).toString();

/**
 * Judges one step's stored phase against the limits (generator first: its lag voids the rest).
 * `queuedMax`: the most arrivals waiting for a free slot in any of the step's windows; `earlier`: the
 * steps judged before this one (users mode compares throughput with the best that held at fewer users).
 */
export function judgeStep(mode: CapacityMode, offered: number, phase: PhaseResult, limits: CapacityLimits, queuedMax = 0, earlier: readonly CapacityStep[] = []): StepVerdict {
  // p90, not p99: a step of a few hundred requests has a p99 of one or two sends, and one hiccup
  // (the first sends of a fresh worker) must not end a search as the generator's limit. Users mode
  // judges the median: every user of a step sends its first request at the step's start (those sends
  // queue behind each other in the generator), and with slow answers a user sends only a few requests
  // a step, so the first sends can be a tenth of them; a generator that cannot keep up is late on
  // most sends, which the median shows.
  const lagStat = mode === 'users' ? 'p50' : 'p90';
  const lag = phase.lag[lagStat];
  if (lag > limits.maxLagMs && queuedMax === 0) return { held: false, limit: 'generator', detail: `schedule lag ${lagStat} ${fmt(lag)} ms > ${limits.maxLagMs} ms` };
  const errors = phase.count - phase.ok;
  const errorRate = phase.count > 0 ? errors / phase.count : 0;
  if (errorRate > limits.maxErrorRate) return { held: false, limit: 'errors', detail: `errors ${fmt(errorRate * 100)} % > ${fmt(limits.maxErrorRate * 100)} %` };
  if (mode === 'rate') {
    if (phase.throughput / offered < limits.minAchievedRatio) return { held: false, limit: 'throughput', detail: `achieved ${fmt(phase.throughput)} req/s of ${fmt(offered)} offered` };
  } else {
    const best = earlier.filter((s) => s.verdict.held && s.offered < offered).reduce<CapacityStep | null>((b, s) => (b === null || s.throughput > b.throughput ? s : b), null);
    if (best !== null && phase.throughput < limits.minAchievedRatio * best.throughput) {
      return { held: false, limit: 'throughput', detail: `throughput ${fmt(phase.throughput)} req/s with ${offered} users, below ${fmt(limits.minAchievedRatio * 100)} % of ${fmt(best.throughput)} req/s with ${best.offered}` };
    }
  }
  const { sample, stat, maxMs } = limits.latency;
  const value = phase[sample]?.[stat];
  if (value === undefined) return { held: false, limit: 'latency', detail: `no ${sample} times measured` };
  if (value > maxMs) return { held: false, limit: 'latency', detail: `${sample} ${stat} ${fmt(value)} ms > ${maxMs} ms` };
  return { held: true };
}

/** The bracket so far: the highest load that held below the lowest load that broke. */
function bracket(steps: readonly CapacityStep[]): { held: number | null; broke: number | null } {
  const broken = steps.filter((s) => !s.verdict.held).map((s) => s.offered);
  const broke = broken.length > 0 ? Math.min(...broken) : null;
  const held = steps.filter((s) => s.verdict.held && (broke === null || s.offered < broke)).map((s) => s.offered);
  return { held: held.length > 0 ? Math.max(...held) : null, broke };
}

/** The next load to offer, or null when the search is over. Users are whole: the search ends when held and broke are adjacent. */
export function nextOffered(steps: readonly CapacityStep[], plan: SearchPlan): number | null {
  const users = plan.mode === 'users';
  if (steps.length === 0) return Math.min(plan.start, plan.max);
  if (steps.length >= plan.maxSteps) return null;
  if (steps.some((s) => !s.verdict.held && s.verdict.limit === 'generator')) return null;
  const { held, broke } = bracket(steps);
  if (broke === null) {
    const last = steps[steps.length - 1]!.offered;
    if (last >= plan.max) return null;
    return Math.min(users ? Math.max(last + 1, Math.round(last * plan.factor)) : last * plan.factor, plan.max);
  }
  if (held === null) {
    // even the first step broke: step down, but not below a factor^3 under the start (nor one user)
    const down = users ? Math.floor(broke / plan.factor) : broke / plan.factor;
    return down < plan.start / plan.factor ** 3 || (users && down < 1) ? null : down;
  }
  if ((broke - held) / held <= plan.tolerance || (users && broke - held <= 1)) return null;
  return users ? Math.round((held + broke) / 2) : round((held + broke) / 2);
}

const round = (r: number) => (r >= 100 ? Math.round(r) : Number(r.toPrecision(3)));

export interface CapacityResult {
  /** the highest offered load that held below every broken one (req/s or users); null: none held */
  sustainable: number | null;
  /** the bracket it lies in: [highest held, lowest broken] (null upper: nothing broke) */
  interval: [number | null, number | null];
  /** what broke at the lowest broken load; 'max load' when nothing broke up to the plan's maximum */
  limitedBy: CapacityLimit | 'max load';
  /** the step (index into steps) where the lowest broken load was offered: the knee; null when nothing broke */
  kneeStep: number | null;
  detail: string;
}

export function capacityOf(mode: CapacityMode, steps: readonly CapacityStep[]): CapacityResult {
  const unit = OFFERED_UNIT[mode];
  const { held, broke } = bracket(steps);
  if (broke === null) return { sustainable: held, interval: [held, null], limitedBy: 'max load', kneeStep: null, detail: `no limit broke up to the highest load offered (${held ?? 0} ${unit})` };
  const kneeStep = steps.findIndex((s) => !s.verdict.held && s.offered === broke);
  const v = steps[kneeStep]!.verdict as Extract<StepVerdict, { held: false }>;
  const generator = steps.find((s) => !s.verdict.held && s.verdict.limit === 'generator');
  if (generator) {
    const g = generator.verdict as Extract<StepVerdict, { held: false }>;
    return { sustainable: held, interval: [held, broke], limitedBy: 'generator', kneeStep, detail: `the load generator could not keep its schedule at ${generator.offered} ${unit} (${g.detail}): the server's capacity is at least ${held ?? 0} ${unit}, not measured beyond` };
  }
  return { sustainable: held, interval: [held, broke], limitedBy: v.limit, kneeStep, detail: `${v.detail} at ${broke} ${unit}` };
}
