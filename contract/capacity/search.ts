import { figureOf } from '../figures.js';
import type { PhaseResult } from '../results.js';
import { countText } from '../report/count-text.js';

// A capacity search: offer a load for one step, judge the step against stated limits, and choose the
// next load: double while every limit holds, then bisect between the highest load that held and the
// lowest that broke, until the bracket is narrower than the tolerance. The load is an open-loop rate
// (req/s) or, as the second mode, a number of closed-loop users (whole numbers). Pure functions: the
// engine runs the steps, the CLI, the UI and reports judge them the same way from stored phases.
//
// The server's own limits are judged first (errors, achieved throughput, latency): a step where the
// server failed one is the server's, whatever the generator's lag, since a late sender does not make
// answers slow or wrong (latency and achieved rate count as the server's when they break their bound
// even after the generator's worst lag is taken off the times and the step's length). Only a step the server held, but whose sends ran late although a connection
// slot was free, is the generator's: the machine could not drive that load, the search stops, and what
// it found is a lower bound. Lag while arrivals queued for a slot (every slot busy: maxInFlight
// reached) is the server's doing and never the generator's.

export type CapacityLimit = 'latency' | 'errors' | 'throughput' | 'generator';

/** What a search steps: the offered open-loop rate, or the number of closed-loop users. */
export type CapacityMode = 'rate' | 'users';

/** The unit of a mode's offered load, as tables and axes name it. */
export const OFFERED_UNIT: Record<CapacityMode, string> = { rate: 'req/s', users: 'users' };

/** An offered load as a person reads it: "400 req/s", "1 user", "8 users". */
export const offeredText = (mode: CapacityMode, offered: number): string => (mode === 'users' ? countText(offered, 'user') : `${offered} req/s`);

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
 * Judges one step's stored phase against the limits: the server's (errors, throughput, latency) first,
 * then the generator's lag. `queuedMax`: the most arrivals waiting for a free slot in any of the step's
 * windows; `earlier`: the steps judged before this one (users mode compares throughput with the best
 * that held at fewer users).
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
  const lagged = lag > limits.maxLagMs && queuedMax === 0;
  const lagText = `schedule lag ${lagStat} ${fmt(lag)} ms > ${limits.maxLagMs} ms`;
  // total and wait run from the intended time, so they include the generator's lateness: when it
  // lagged, only what is left after its worst lag (lag.max) is surely the server's own latency
  const server = serverVerdict(mode, offered, phase, limits, earlier, lagged ? phase.lag.max : 0);
  if (server !== null) return lagged ? { ...server, detail: `${server.detail} (the generator also lagged: ${lagText})` } : server;
  if (lagged) return { held: false, limit: 'generator', detail: lagText };
  return { held: true };
}

/** The first of the server's own limits the step failed, or null when it held them all. `lagMs`: the generator's lateness to take off total and wait times and the step's length. */
function serverVerdict(mode: CapacityMode, offered: number, phase: PhaseResult, limits: CapacityLimits, earlier: readonly CapacityStep[], lagMs: number): Extract<StepVerdict, { held: false }> | null {
  const errorRate = figureOf(phase, 'errors.rate') ?? 0;
  if (errorRate > limits.maxErrorRate) return { held: false, limit: 'errors', detail: `errors ${fmt(errorRate * 100)} % > ${fmt(limits.maxErrorRate * 100)} %` };
  // a late generator also stretches the step (its last sends went late): the server's own rate is at
  // least the requests over the step's length less the worst lag
  const own = lagMs <= 0 ? phase.throughput : phase.durationMs > lagMs ? phase.count / ((phase.durationMs - lagMs) / 1000) : Number.POSITIVE_INFINITY;
  if (mode === 'rate') {
    if (own / offered < limits.minAchievedRatio) return { held: false, limit: 'throughput', detail: `achieved ${fmt(phase.throughput)} req/s of ${fmt(offered)} offered` };
  } else {
    const best = earlier.filter((s) => s.verdict.held && s.offered < offered).reduce<CapacityStep | null>((b, s) => (b === null || s.throughput > b.throughput ? s : b), null);
    if (best !== null && own < limits.minAchievedRatio * best.throughput) {
      return { held: false, limit: 'throughput', detail: `throughput ${fmt(phase.throughput)} req/s with ${offered} users, below ${fmt(limits.minAchievedRatio * 100)} % of ${fmt(best.throughput)} req/s with ${best.offered}` };
    }
  }
  const { sample, stat, maxMs } = limits.latency;
  const value = figureOf(phase, `${sample}.${stat}`);
  if (value === null) return { held: false, limit: 'latency', detail: `no ${sample} times measured` };
  const ownMs = sample === 'processing' ? value : value - lagMs;
  if (ownMs > maxMs) return { held: false, limit: 'latency', detail: `${sample} ${stat} ${fmt(value)} ms > ${maxMs} ms${ownMs < value ? ` (${fmt(ownMs)} ms without the generator's worst lag)` : ''}` };
  return null;
}

const serverBroke = (s: CapacityStep) => !s.verdict.held && s.verdict.limit !== 'generator';

/** The bracket so far: the highest load that held below the lowest load where the server broke (a generator stop ends the search instead). */
function bracket(steps: readonly CapacityStep[]): { held: number | null; broke: number | null } {
  const broken = steps.filter(serverBroke).map((s) => s.offered);
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
  /** the highest offered load that held below every load the server broke at (req/s or users); null: none held */
  sustainable: number | null;
  /** the bracket it lies in: [highest held, lowest where the server broke] (null upper: the server never broke) */
  interval: [number | null, number | null];
  /** the limit the server broke first (at the lowest load); 'generator' when only the machine's generator stopped the search; 'max load' when nothing broke up to the plan's maximum */
  limitedBy: CapacityLimit | 'max load';
  /** the step (index into steps) where the server broke at the lowest load: the knee; null when the server never broke (a generator stop is no knee) */
  kneeStep: number | null;
  /** the machine could not drive the load before the server broke: sustainable and bracket are lower bounds */
  lowerBound: boolean;
  detail: string;
}

export function capacityOf(mode: CapacityMode, steps: readonly CapacityStep[]): CapacityResult {
  const { held, broke } = bracket(steps);
  const generator = steps.find((s) => !s.verdict.held && s.verdict.limit === 'generator');
  const stopped = generator ? `the load generator could not keep its schedule at ${offeredText(mode, generator.offered)} (${(generator.verdict as Extract<StepVerdict, { held: false }>).detail})` : '';
  if (broke === null) {
    if (generator) {
      const found = held === null ? 'nothing was measured of the server' : `the server's capacity is at least ${offeredText(mode, held)}, not measured beyond`;
      return { sustainable: held, interval: [held, null], limitedBy: 'generator', kneeStep: null, lowerBound: true, detail: `${stopped} while the server held every limit: ${found}` };
    }
    return { sustainable: held, interval: [held, null], limitedBy: 'max load', kneeStep: null, lowerBound: false, detail: `no limit broke up to the highest load offered (${offeredText(mode, held ?? 0)})` };
  }
  const kneeStep = steps.findIndex((s) => serverBroke(s) && s.offered === broke);
  const v = steps[kneeStep]!.verdict as Extract<StepVerdict, { held: false }>;
  const parts = [`${v.detail} at ${offeredText(mode, broke)}`];
  if (held === null) parts.push(`below ${offeredText(mode, broke)}: ${steps.filter(serverBroke).length > 1 ? 'every load offered broke' : 'the first step already broke'}`);
  if (generator) parts.push(`${stopped}, so ${held === null ? 'no lower load was measured' : 'the bracket was not narrowed further'}`);
  return { sustainable: held, interval: [held, broke], limitedBy: v.limit, kneeStep, lowerBound: false, detail: parts.join('; ') };
}

/**
 * A bracket in words for a table cell, with the view's number format: "100 – 200"; "below 100" when
 * the first step already broke; "at least 200" when the generator stopped the search first; "none
 * broke up to 5000" when nothing broke.
 */
export function bracketText(result: Pick<CapacityResult, 'interval' | 'limitedBy'>, num: (v: number) => string): string {
  const [held, broke] = result.interval;
  if (broke !== null) return held === null ? `below ${num(broke)}` : `${num(held)} – ${num(broke)}`;
  if (held === null) return 'not measured';
  return result.limitedBy === 'generator' ? `at least ${num(held)}` : `none broke up to ${num(held)}`;
}

/** The sustainable load for a table cell: "≥ 200" when it is a lower bound, "-" when none held. */
export const sustainableText = (result: Pick<CapacityResult, 'sustainable' | 'lowerBound'>, num: (v: number) => string): string =>
  result.sustainable === null ? '-' : `${result.lowerBound ? '≥ ' : ''}${num(result.sustainable)}`;

/** Said once under a capacity table when the machine, not the server, ended any search. */
export const LOWER_BOUND_NOTE = 'the machine could not drive this load: the figures are lower bounds (the load generator fell behind its schedule while the server still held every limit)';
