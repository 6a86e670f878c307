import type { PhaseResult } from '../../contract/results.js';
import type { Scenario } from '../../contract/scenario.js';
import { compareThreshold, parseThresholdCheck, type ThresholdMetric, type ThresholdResult } from '../../contract/thresholds.js';
import { metricValue } from '../report/points.js';
import { defaultPhaseName } from '../../contract/phase.js';

/** One metric of a phase result, as a threshold reads it (times in ms). */
export function thresholdMetricValue(result: PhaseResult, metric: ThresholdMetric): number | null {
  if (metric === 'errors.count') return metricValue(result, 'errors');
  if (metric === 'errors.rate') {
    const errors = metricValue(result, 'errors') ?? 0;
    return result.count > 0 ? errors / result.count : null;
  }
  return metricValue(result, metric);
}

export interface ThresholdTarget {
  targetId: number;
  cellIndex: number;
  /** the server's label (or architecture) */
  server: string;
  architecture: string;
}

/**
 * Every threshold of the scenario that applies to this phase result, checked. A metric the phase
 * has no value for (processing without Server-Timing, a phase with no requests) fails: a check that
 * could not be made must not let CI through.
 */
export function checkThresholds(scenario: Pick<Scenario, 'thresholds'>, target: ThresholdTarget, phase: PhaseResult): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const t of scenario.thresholds ?? []) {
    if (t.phase !== undefined && t.phase !== phase.name && t.phase !== defaultPhaseName(phase.index)) continue;
    if (t.server !== undefined && t.server !== target.server && t.server !== target.architecture) continue;
    const parsed = parseThresholdCheck(t.check);
    if (!parsed) continue; // the schema refuses such a check before a run starts
    const measured = thresholdMetricValue(phase, parsed.metric);
    results.push({
      targetId: target.targetId,
      cellIndex: target.cellIndex,
      server: target.server,
      phaseIndex: phase.index,
      phase: phase.name,
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
