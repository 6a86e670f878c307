import type { PlannedPhase } from '../../contract/timeline';

// Phases that run at the same time (an `at` that starts one while another still runs: streams held
// beside /fib) were drawn on top of each other, the last one hiding the rest. Each phase takes the
// first lane free at its start, so overlapping phases stack and phases one after another share a lane.

/**
 * Each phase's lane (by its place in `phases`) and how many lanes there are. An open-ended phase
 * (no planned duration) is taken to last `openMs`, the width it is drawn with.
 */
export function timelineLanes(phases: readonly Pick<PlannedPhase, 'startMs' | 'durationMs'>[], openMs: number): { lane: number[]; lanes: number } {
  const laneEnds: number[] = [];
  const lane = phases.map((p) => {
    const end = p.startMs + (p.durationMs ?? openMs);
    let k = laneEnds.findIndex((e) => e <= p.startMs);
    if (k === -1) k = laneEnds.push(end) - 1;
    else laneEnds[k] = end;
    return k;
  });
  return { lane, lanes: Math.max(1, laneEnds.length) };
}
