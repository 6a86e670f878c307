import type { PhaseResult } from './results.js';
import { clampPercentiles } from './measurement.js';

// Total time runs from the intended send time, so when the load generator itself falls behind its
// schedule (its own stalls: a busy core, garbage collection) that lag lands in the tail as if the
// server had been slow. Where the lag is a large share of the tail, the run says so in words.

/** The share of total p99 at or above which the tail is called the generator's. */
export const LAG_SHARE = 0.5;
/** Below this lag p99 (ms) nothing is said: a tail this small is nobody's problem. */
export const LAG_FLOOR_MS = 1;

/** Whether the generator's lag p99 is past the floor and at least LAG_SHARE of the total p99: the tail is the generator's. */
export function lagMakesTail(lagP99: number | null, totalP99: number | null): boolean {
  return lagP99 !== null && totalP99 !== null && lagP99 >= LAG_FLOOR_MS && totalP99 > 0 && lagP99 / totalP99 >= LAG_SHARE;
}

/** A sentence when the generator's own lag makes up much of a phase's total p99, else null. */
export function generatorTailNote(phase: Pick<PhaseResult, 'total' | 'lag'>): string | null {
  const lag = clampPercentiles(phase.lag).p99;
  const total = clampPercentiles(phase.total).p99;
  if (!lagMakesTail(lag, total)) return null;
  const f = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
  return `the load generator's own lag p99 is ${f(lag)} ms of the ${f(total)} ms total p99 (${Math.round((lag / total) * 100)} %): this tail is Loadscope's, not the server's`;
}
