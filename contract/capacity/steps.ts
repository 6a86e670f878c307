import type { LiveWindow, PhaseResult, ServerSample } from '../results.js';
import type { CapacitySearch } from '../scenario.js';
import { capacityOf, judgeStep, nextRate, type CapacityResult, type StepVerdict } from './search.js';
import { fitUsl, UslFitError, type UslFit } from './usl.js';

// A stored capacity search read back: each step is a stored phase named by its offered rate
// ("400 req/s"), so the CLI, the UI and reports judge the same stored figures the same way the
// engine did while it ran, and fit the scalability curve to them.

const RATE_NAME = /^(\d+(?:\.\d+)?) req\/s$/;

/** A step's phase name: its offered rate. */
export const stepName = (rate: number): string => `${Number(rate.toPrecision(4))} req/s`;

/** The offered rate a step's phase name states, or null for a phase that is not a step. */
export function stepRate(name: string): number | null {
  const m = RATE_NAME.exec(name);
  return m ? Number(m[1]) : null;
}

type Percentiles = { p50: number; p90: number; p99: number };

export interface CapacityPoint {
  /** offered rate (req/s) */
  rate: number;
  /** achieved throughput (req/s) */
  throughput: number;
  /** requests in flight on average (Little's law: throughput x mean total time): the USL's N */
  concurrency: number;
  total: Percentiles;
  wait: Percentiles;
  processing: Percentiles | null;
  /** the server's mean CPU % over the step (100 = one core), when it was sampled */
  cpuPercent: number | null;
  verdict: StepVerdict;
}

/** Why the search ended: it narrowed its bracket (or the generator or maxRate ended it), or a bound stopped it first. */
export type SearchEnd = 'complete' | 'step count' | 'time bound';

export interface TargetCapacity {
  steps: CapacityPoint[];
  result: CapacityResult;
  ended: SearchEnd;
  /** the USL fitted to (concurrency, throughput); null with the reason when it cannot be */
  usl: UslFit | null;
  uslNote: string | null;
}

export interface StepInputs {
  /** the first rate offered (the scenario's phases[0].rate) */
  startRate: number;
  phases: readonly PhaseResult[];
  /** the most arrivals queued in any window of each phase (by phase index) */
  queuedMax?: ReadonlyMap<number, number>;
  /** the server's mean CPU % during each phase (by phase index) */
  cpuPercent?: ReadonlyMap<number, number>;
}

const pct = (s: { p50: number; p90: number; p99: number }): Percentiles => ({ p50: s.p50, p90: s.p90, p99: s.p99 });

export function targetCapacity(search: CapacitySearch, { startRate, phases, queuedMax, cpuPercent }: StepInputs): TargetCapacity {
  const limits = { latency: search.latency, maxErrorRate: search.maxErrorRate, minAchievedRatio: search.minAchievedRatio, maxLagMs: search.maxLagMs };
  const steps: CapacityPoint[] = [];
  for (const p of [...phases].sort((a, b) => a.index - b.index)) {
    const rate = stepRate(p.name);
    if (rate === null) continue;
    steps.push({
      rate,
      throughput: p.throughput,
      concurrency: (p.throughput * p.total.mean) / 1000,
      total: pct(p.total),
      wait: pct(p.wait),
      processing: p.processing ? pct(p.processing) : null,
      cpuPercent: cpuPercent?.get(p.index) ?? null,
      verdict: judgeStep(rate, p, limits, queuedMax?.get(p.index) ?? 0),
    });
  }
  const result = capacityOf(steps);
  const plan = { startRate, maxRate: search.maxRate, factor: search.factor, tolerance: search.tolerance, maxSteps: Number.POSITIVE_INFINITY };
  const ended: SearchEnd = nextRate(steps, plan) === null ? 'complete' : steps.length >= search.maxSteps ? 'step count' : 'time bound';
  let usl: UslFit | null = null;
  let uslNote: string | null = null;
  try {
    usl = fitUsl(steps.map((s) => ({ n: s.concurrency, x: s.throughput })));
  } catch (err) {
    if (!(err instanceof UslFitError)) throw err;
    uslNote = err.message;
  }
  return { steps, result, ended, usl, uslNote };
}

/**
 * One server run's inputs from what the store keeps: its phases, the most arrivals queued in each
 * phase's windows, and its mean sampled CPU during each phase.
 */
export function stepInputsOf(
  startRate: number,
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
  return { startRate, phases, queuedMax, cpuPercent };
}
