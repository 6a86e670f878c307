import { phaseEndpoints, type PhaseResult } from '../../contract/results.js';
import type { Scenario } from '../../contract/scenario.js';
import { compareThreshold, parseThresholdCheck, type ThresholdResult } from '../../contract/thresholds.js';
import { figureOf } from '../../contract/figures.js';
import { defaultPhaseName } from '../../contract/phase.js';
import { templateName } from '../../contract/template-name.js';
import { endpointAsPhase } from '../../contract/endpoints.js';

export interface ThresholdTarget {
  targetId: number;
  cellIndex: number;
  /** the server's label (or architecture) */
  server: string;
  architecture: string;
}

/**
 * What a threshold reads: the whole phase, or with `request` the endpoint of that name. A request
 * threshold applies to the phases that have that endpoint (in their result, or among their
 * templates); when such a phase's result has no figures for it (a source that did not split its
 * requests), it reads nothing: null.
 */
function measuredFigures(scenario: Pick<Scenario, 'phases'>, phase: PhaseResult, request: string | undefined): PhaseResult | null | 'not-here' {
  if (request === undefined) return phase;
  const endpoint = phaseEndpoints(phase).find((e) => e.name === request);
  if (endpoint !== undefined) return endpointAsPhase(phase, endpoint);
  // (a capacity step is a phase the scenario does not list: its endpoints answer above)
  const templates = scenario.phases[phase.index]?.requests ?? [];
  return templates.some((t) => templateName(t) === request) ? null : 'not-here';
}

/**
 * Every threshold of the scenario that applies to this phase result, checked. A metric the phase
 * (or the endpoint a threshold names) has no value for (processing without Server-Timing, a phase
 * with no requests) fails: a check that could not be made must not let CI through.
 */
export function checkThresholds(scenario: Pick<Scenario, 'thresholds' | 'phases'>, target: ThresholdTarget, phase: PhaseResult): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const t of scenario.thresholds ?? []) {
    if (t.phase !== undefined && t.phase !== phase.name && t.phase !== defaultPhaseName(phase.index)) continue;
    if (t.server !== undefined && t.server !== target.server && t.server !== target.architecture) continue;
    const parsed = parseThresholdCheck(t.check);
    if (!parsed) continue; // the schema refuses such a check before a run starts
    const figures = measuredFigures(scenario, phase, t.request);
    if (figures === 'not-here') continue;
    const measured = figures === null ? null : figureOf(figures, parsed.metric);
    results.push({
      targetId: target.targetId,
      cellIndex: target.cellIndex,
      server: target.server,
      phaseIndex: phase.index,
      phase: phase.name,
      ...(t.request === undefined ? {} : { request: t.request }),
      check: t.check.trim(),
      metric: parsed.metric,
      op: parsed.op,
      limit: parsed.limit,
      measured,
      passed: measured !== null && compareThreshold(measured, parsed.op, parsed.limit),
    });
  }
  return results;
}
