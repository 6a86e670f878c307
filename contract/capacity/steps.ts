import { phaseFigures } from '../engine-figures.js';
import type { LiveWindow, PhaseResult, ServerSample } from '../results.js';
import type { CapacitySearch } from '../scenario.js';
import { capacityOf, judgeStep, nextOffered, offeredText, type CapacityLimits, type CapacityMode, type CapacityResult, type CapacityStep, type SearchPlan, type StepVerdict } from './search.js';
import { fitUsl, UslFitError, uslPoorNote, type UslFit } from './usl.js';

// A stored capacity search read back: each step is a stored phase named by its offered load
// ("400 req/s", "8 users"), so the CLI, the UI and reports judge the same stored figures the same way
// the engine did while it ran, and fit the scalability curve to them.

const STEP_NAME: Record<CapacityMode, RegExp> = { rate: /^(\d+(?:\.\d+)?) req\/s$/, users: /^(\d+) users?$/ };

/** A step's phase name: its offered load. */
export const stepName = (mode: CapacityMode, offered: number): string => offeredText(mode, Number(offered.toPrecision(4)));

/** The offered load a step's phase name states, or null for a phase that is not a step of this mode. */
export function stepOffered(mode: CapacityMode, name: string): number | null {
  const m = STEP_NAME[mode].exec(name);
  return m ? Number(m[1]) : null;
}

/** What a scenario's capacity search steps: users for a closed-loop phases[0], else the rate. */
export const capacityModeOf = (executor: string | undefined): CapacityMode => (executor === 'closed' ? 'users' : 'rate');

/** The limits a scenario's capacity block states: the engine and every view judge steps by these. */
export const searchLimits = (search: CapacitySearch): CapacityLimits => ({ latency: search.latency, maxErrorRate: search.maxErrorRate, minAchievedRatio: search.minAchievedRatio, maxLagMs: search.maxLagMs });

/** The plan a scenario's capacity block states for a search of this mode starting at `start`. */
export const searchPlan = (search: CapacitySearch, mode: CapacityMode, start: number, maxSteps = search.maxSteps): SearchPlan => ({ mode, start, max: mode === 'users' ? search.maxUsers : search.maxRate, factor: search.factor, tolerance: search.tolerance, maxSteps });

type Percentiles = { p50: number; p90: number; p99: number };

export interface CapacityPoint {
  /** the offered load: req/s (rate mode) or users (users mode) */
  offered: number;
  /** achieved throughput (req/s) */
  throughput: number;
  /** requests in flight on average (Little's law: throughput x mean total time): the USL's N */
  concurrency: number;
  total: Percentiles;
  /** null where the server sent no Server-Timing (unknown, as processing is) */
  wait: Percentiles | null;
  processing: Percentiles | null;
  /** the server's mean CPU % over the step (100 = one core), when it was sampled */
  cpuPercent: number | null;
  /** requests the step sent: how many its latency percentile was judged on */
  requests: number;
  verdict: StepVerdict;
}

/** Why the search ended: it narrowed its bracket (or the generator or maxRate ended it), or a bound stopped it first. */
export type SearchEnd = 'complete' | 'step count' | 'time bound';

export interface TargetCapacity {
  /** what was stepped: the open-loop rate or the closed-loop users */
  mode: CapacityMode;
  steps: CapacityPoint[];
  result: CapacityResult;
  ended: SearchEnd;
  /** the USL fitted to (concurrency, throughput); null with the reason when it cannot be */
  usl: UslFit | null;
  /** why there is no fit, or why the fit is not drawn (R² below USL_MIN_R2: see uslTrusted) */
  uslNote: string | null;
  /** how many steps judged their latency percentile on its slowest request or two (see fewRequests), of how many */
  thin: { steps: number; of: number; below: number; judged: string } | null;
}

export interface StepInputs {
  mode: CapacityMode;
  /** the first load offered (the scenario's phases[0].rate or .users) */
  start: number;
  phases: readonly PhaseResult[];
  /** the most arrivals queued in any window of each phase (by phase index) */
  queuedMax?: ReadonlyMap<number, number>;
  /** the server's mean CPU % during each phase (by phase index) */
  cpuPercent?: ReadonlyMap<number, number>;
}

const pct = (s: { p50: number; p90: number; p99: number }): Percentiles => ({ p50: s.p50, p90: s.p90, p99: s.p99 });
const waitOf = (p: PhaseResult): Percentiles | null => {
  const wait = phaseFigures('native', p).stats.wait;
  return wait ? pct(wait) : null;
};

export function targetCapacity(search: CapacitySearch, { mode, start, phases, queuedMax, cpuPercent }: StepInputs): TargetCapacity {
  const limits = searchLimits(search);
  const steps: CapacityPoint[] = [];
  const judged: CapacityStep[] = [];
  for (const p of [...phases].sort((a, b) => a.index - b.index)) {
    const offered = stepOffered(mode, p.name);
    if (offered === null) continue;
    const verdict = judgeStep(mode, offered, p, limits, queuedMax?.get(p.index) ?? 0, judged);
    judged.push({ offered, throughput: p.throughput, verdict });
    steps.push({
      offered,
      throughput: p.throughput,
      concurrency: (p.throughput * p.total.mean) / 1000,
      total: pct(p.total),
      // as every view reads it: none without processing (runs stored before held wait = total there)
      wait: waitOf(p),
      processing: p.processing ? pct(p.processing) : null,
      cpuPercent: cpuPercent?.get(p.index) ?? null,
      requests: p.count,
      verdict,
    });
  }
  const result = capacityOf(mode, steps);
  // the step bound is not replayed: a search that stopped at it is told apart below
  const plan = searchPlan(search, mode, start, Number.POSITIVE_INFINITY);
  const ended: SearchEnd = nextOffered(steps, plan) === null ? 'complete' : steps.length >= search.maxSteps ? 'step count' : 'time bound';
  let usl: UslFit | null = null;
  let uslNote: string | null = null;
  try {
    usl = fitUsl(steps.map((s) => ({ n: s.concurrency, x: s.throughput })));
    uslNote = uslPoorNote(usl);
  } catch (err) {
    if (!(err instanceof UslFitError)) throw err;
    uslNote = err.message;
  }
  const below = fewRequests(limits.latency.stat);
  const thinSteps = steps.filter((s) => s.requests < below).length;
  return { mode, steps, result, ended, usl, uslNote, thin: thinSteps > 0 ? { steps: thinSteps, of: steps.length, below, judged: `${limits.latency.sample} ${limits.latency.stat}` } : null };
}

/**
 * Below this many requests a step's latency percentile is set by its slowest one or two (fewer than
 * two requests lie above it): near the limit such a step holds in one run and breaks in the next, so
 * two runs of a short search (a quick profile's 0.6 s steps) can bracket a step apart. Said, not hidden.
 */
export const fewRequests = (stat: 'p50' | 'p90' | 'p99'): number => Math.ceil(2 / (1 - Number(stat.slice(1)) / 100));

/** The note the views print once when any server's steps were judged on few requests. */
export function thinNote(servers: readonly { name: string; capacity: Pick<TargetCapacity, 'thin'> }[]): string | null {
  const thin = servers.filter((s) => s.capacity.thin !== null);
  if (thin.length === 0) return null;
  const { below, judged } = thin[0]!.capacity.thin!;
  const which = thin.map((s) => `${s.name} ${s.capacity.thin!.steps} of ${s.capacity.thin!.of}`).join(', ');
  return `steps of fewer than ${below} requests judge ${judged} by their slowest one or two, so near the limit a step can hold in one run and break in the next, and two runs can differ by a step (${which}); longer steps judge on more`;
}

/**
 * One server run's inputs from what the store keeps: its phases, the most arrivals queued in each
 * phase's windows, and its mean sampled CPU during each phase.
 */
export function stepInputsOf(
  mode: CapacityMode,
  start: number,
  targetId: number,
  phases: readonly PhaseResult[],
  windows: readonly Pick<LiveWindow, 'targetId' | 'phaseIndex' | 'queued'>[],
  samples: readonly Pick<ServerSample, 'targetId' | 'tMs' | 'cpuPercent'>[],
): StepInputs {
  const queuedMax = new Map<number, number>();
  for (const w of windows) {
    if (w.targetId !== targetId || w.phaseIndex === null) continue;
    queuedMax.set(w.phaseIndex, Math.max(queuedMax.get(w.phaseIndex) ?? 0, w.queued));
  }
  const cpuPercent = new Map<number, number>();
  const mine = samples.filter((s) => s.targetId === targetId);
  for (const p of phases) {
    const inside = mine.filter((s) => s.tMs >= p.startedMs && s.tMs <= p.startedMs + p.durationMs);
    if (inside.length > 0) cpuPercent.set(p.index, inside.reduce((sum, s) => sum + s.cpuPercent, 0) / inside.length);
  }
  return { mode, start, phases, queuedMax, cpuPercent };
}
