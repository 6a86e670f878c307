import type { LiveWindow } from '../../contract/results.js';

// The load generator's own CPU over a phase, from its live windows (windows.own_cpu: the Loadscope
// process, every thread, 100 = one core). generator-limited reads it: past OWN_CPU_BUSY the
// generator is itself a limit, whatever its lag says.

/**
 * The generator's mean CPU over a phase (% of one core) at or above which it was busy: k6 Cloud's
 * performance insight warns at 80 % generator CPU (Locust at 90 %). The driver sends from one thread,
 * so past 80 % of a core it has little room left to keep its schedule.
 */
export const OWN_CPU_BUSY = 80;
/** Windows (250 ms each) a phase needs for its mean: a second, so one busy window (a GC, the store's batch) is not a finding. */
export const MIN_CPU_WINDOWS = 4;

/** The mean of a phase's windows' own CPU, with how many windows carried it; null when fewer than MIN_CPU_WINDOWS did (older runs, k6). */
export function ownCpuOf(windows: readonly LiveWindow[]): { mean: number; windows: number } | null {
  const known = windows.flatMap((w) => (typeof w.ownCpu === 'number' && Number.isFinite(w.ownCpu) && w.ownCpu >= 0 ? [w.ownCpu] : []));
  if (known.length < MIN_CPU_WINDOWS) return null;
  return { mean: known.reduce((a, b) => a + b, 0) / known.length, windows: known.length };
}
