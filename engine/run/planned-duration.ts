import type { Phase } from '../../contract/scenario.js';
import { executorOf } from '../driver/executors/index.js';

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
    const length = executorOf(phase).plannedMs(phase);
    if (length === null) return null;
    cursor = start + length;
    end = Math.max(end, cursor);
  }
  return end;
}
