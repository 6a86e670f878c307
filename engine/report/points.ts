import type { CellInfo, PhaseResult, TargetResult } from '../../contract/results.js';
import type { MetricName, Scenario } from '../../contract/scenario.js';
import { phaseName } from '../../contract/phase.js';
import { figureOf, isCountFigure } from '../../contract/figures.js';

// The data a report is computed from: one point per server run (target) per phase, with the cell's
// matrix parameters. A server run that was skipped or failed before its phases ran still yields one
// point per phase of the scenario, with no result, so its row shows up in a table (as '-') instead of
// silently disappearing.

/** What a report needs of a run: its cells (matrix parameters) and its server runs. */
export interface ReportRun {
  cells: readonly CellInfo[];
  targets: readonly TargetResult[];
}

export interface Point {
  /** the server's label (its `label`, or its architecture) */
  server: string;
  /** the phase's name (its `name`, or "phase N") */
  phase: string;
  phaseIndex: number;
  cellIndex: number;
  /** the cell's matrix parameters, by matrix key */
  params: Readonly<Record<string, unknown>>;
  /** null where the server run did not get as far as this phase */
  result: PhaseResult | null;
  status: TargetResult['status'];
  reason: string | null;
}

export const phaseDisplayName = (name: string | undefined, index: number): string => phaseName({ name }, index);

export function collectPoints(scenario: Pick<Scenario, 'phases'>, run: ReportRun): Point[] {
  const points: Point[] = [];
  for (const target of run.targets) {
    const params = run.cells.find((c) => c.index === target.cellIndex)?.params ?? {};
    const base = { server: target.label, cellIndex: target.cellIndex, params, status: target.status, reason: target.reason };
    const seen = new Set<number>();
    for (const result of target.phases) {
      seen.add(result.index);
      points.push({ ...base, phase: result.name, phaseIndex: result.index, result });
    }
    scenario.phases.forEach((phase, index) => {
      if (!seen.has(index)) points.push({ ...base, phase: phaseDisplayName(phase.name, index), phaseIndex: index, result: null });
    });
  }
  return points;
}

/** Metrics that are times (scaled by the table's unit); the others are counts or rates. */
export function isTimeMetric(metric: MetricName): boolean {
  return metric === 'durationMs' || metric.includes('.');
}

/** One metric of one phase result, in ms for times; null where the result does not have it (contract/figures.ts). */
export function metricValue(result: PhaseResult | null, metric: MetricName): number | null {
  return result === null ? null : figureOf(result, metric);
}

/**
 * The metric over several points (a table or a check that leaves a dimension out aggregates over
 * it): counts and errors add up; min and max are the min and max; means are weighted by request
 * count; percentiles, throughput and duration are the plain mean of the points' values (an
 * approximation for percentiles: put the dimension in the table for exact ones).
 */
export function aggregateMetric(points: readonly Point[], metric: MetricName): number | null {
  const values: Array<{ value: number; weight: number }> = [];
  for (const p of points) {
    const value = metricValue(p.result, metric);
    if (value !== null) values.push({ value, weight: p.result?.count ?? 0 });
  }
  if (values.length === 0) return null;
  if (values.length === 1) return values[0]!.value;
  if (isCountFigure(metric)) return values.reduce((s, v) => s + v.value, 0);
  if (metric.endsWith('.max')) return Math.max(...values.map((v) => v.value));
  if (metric.endsWith('.min')) return Math.min(...values.map((v) => v.value));
  if (metric.endsWith('.mean')) {
    const weight = values.reduce((s, v) => s + v.weight, 0);
    if (weight > 0) return values.reduce((s, v) => s + v.value * v.weight, 0) / weight;
  }
  return values.reduce((s, v) => s + v.value, 0) / values.length;
}
