import type { Phase } from '../../contract/scenario.js';

/**
 * How long a server run is planned to take, in ms, or null where the phases do not say (bursts,
 * count-bounded closed and sequential phases end when their requests do). Feeds `remaining` in
 * progress events; an estimate, never a limit.
 */
export function plannedDurationMs(phases: readonly Phase[]): number | null {
  let cursor = 0;
  let end = 0;
  for (const phase of phases) {
    const start = phase.at ?? cursor;
    const length = phaseLengthMs(phase);
    if (length === null) return null;
    cursor = start + length;
    end = Math.max(end, cursor);
  }
  return end;
}

function phaseLengthMs(phase: Phase): number | null {
  switch (phase.executor) {
    case 'rate':
      return phase.durationMs;
    case 'closed':
      return phase.count === undefined ? (phase.durationMs ?? null) : null;
    default:
      return null;
  }
}
