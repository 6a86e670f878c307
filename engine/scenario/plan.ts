import { cellNames } from '../../contract/cells.js';
import { isFlow } from '../../contract/flow.js';
import { templateName, type Phase } from '../../contract/scenario.js';
import type { PlannedPhase, TimelinePlan } from '../../contract/timeline.js';
import { phaseStreams } from '../../contract/stream-names.js';
import { describePhaseLoad, expectedRequests, phaseName, phaseRamp, plannedMs } from '../../contract/phase.js';
import type { Cell } from './matrix.js';
import { serverLabel } from './summary.js';

// The timeline preview's figures, from the cells as they would run (quick profile and matrix
// applied): where each phase starts; how long it lasts, how many requests it should send and its
// load in words are the phase's own facts (contract/phase.ts).

export function planPhases(phases: readonly Phase[]): PlannedPhase[] {
  let cursor = 0;
  return phases.map((p, index) => {
    const startMs = p.at ?? cursor;
    const durationMs = plannedMs(p);
    // An open-ended phase ends when its requests do; the next one (without `at`) starts after it.
    cursor = startMs + (durationMs ?? 0);
    const shape = phaseRamp(p);
    const streams = phaseStreams(p);
    return { index, name: phaseName(p, index), executor: p.executor, startMs, durationMs, expectedRequests: expectedRequests(p), load: describePhaseLoad(p), ...(shape ? { ramp: shape } : {}), ...(streams.length > 0 ? { streams } : {}), ...(isFlow(p) ? { steps: p.requests.map(templateName) } : {}) };
  });
}

export function planTimeline(cells: readonly Cell[], quick: boolean): TimelinePlan {
  const names = cellNames(cells);
  return {
    quick,
    cells: cells.map((c) => ({
      index: c.index,
      label: c.label,
      name: names.get(c.index) ?? c.label,
      servers: c.scenario.servers.map((s) => ({ label: serverLabel(s), phases: planPhases(c.scenario.phases) })),
    })),
  };
}
