import type { Scenario } from '../contract/scenario.js';
import { aggregateMetric, collectPoints, type Point, type ReportRun } from '../engine/report/points.js';
import { valueLabel } from '../engine/report/render-report.js';
import { SHAPE_CHECKS, type ShapeCheck, type Side } from './shape-checks.js';

// Judging the write-ups' shapes (the table: shape-checks.ts) against a run's report points.

export interface CheckCase {
  /** the forEach value, or '' */
  label: string;
  numerator: number | null;
  denominator: number | null;
  /** numerator / denominator, or the numerator for a value check; null without data */
  value: number | null;
  holds: boolean | null;
}

export interface CheckResult {
  check: ShapeCheck;
  cases: CheckCase[];
  /** every case holds; null when no case had data */
  holds: boolean | null;
}

export function rangeText(check: Pick<ShapeCheck, 'min' | 'max' | 'denominator'>): string {
  const what = check.denominator ? 'ratio' : 'value';
  if (check.min !== undefined && check.max !== undefined) return `${what} in ${check.min}..${check.max}`;
  if (check.min !== undefined) return `${what} >= ${check.min}`;
  if (check.max !== undefined) return `${what} <= ${check.max}`;
  return what;
}

/** The values of a matrix key in matrix (cell) order. */
function matrixValues(run: ReportRun, key: string): string[] {
  const seen: string[] = [];
  for (const cell of [...run.cells].sort((a, b) => a.index - b.index)) {
    if (!Object.hasOwn(cell.params, key)) continue;
    const v = valueLabel(cell.params[key]);
    if (!seen.includes(v)) seen.push(v);
  }
  return seen;
}

function dimOf(point: Point, dim: string): string {
  if (dim === 'server') return point.server;
  if (dim === 'phase') return point.phase;
  return Object.hasOwn(point.params, dim) ? valueLabel(point.params[dim]) : '';
}

function resolveParam(run: ReportRun, key: string, wanted: unknown): string | null {
  if (wanted === '$first' || wanted === '$last') {
    const values = matrixValues(run, key);
    return (wanted === '$first' ? values[0] : values[values.length - 1]) ?? null;
  }
  return valueLabel(wanted);
}

function select(points: readonly Point[], side: Side, run: ReportRun): Point[] {
  const params = Object.entries(side.params ?? {}).map(([key, v]) => [key, resolveParam(run, key, v)] as const);
  return points.filter(
    (p) =>
      (side.server === undefined || p.server === side.server) &&
      (side.phase === undefined || p.phase === side.phase) &&
      params.every(([key, v]) => v !== null && Object.hasOwn(p.params, key) && valueLabel(p.params[key]) === v),
  );
}

export function evaluateCheck(check: ShapeCheck, scenario: Pick<Scenario, 'phases'>, run: ReportRun): CheckResult {
  const points = collectPoints(scenario, run);
  const groups: Array<{ label: string; points: Point[] }> = [];
  if (check.forEach) {
    const dim = check.forEach;
    const values = dim === 'server' || dim === 'phase' ? [...new Set(points.map((p) => dimOf(p, dim)))] : matrixValues(run, dim);
    for (const v of values) groups.push({ label: v, points: points.filter((p) => dimOf(p, dim) === v) });
  } else {
    groups.push({ label: '', points });
  }
  const cases = groups.map(({ label, points: pts }): CheckCase => {
    const numerator = aggregateMetric(select(pts, check.numerator, run), check.numerator.metric ?? check.metric);
    const denominator = check.denominator ? aggregateMetric(select(pts, check.denominator, run), check.denominator.metric ?? check.metric) : null;
    let value: number | null;
    if (!check.denominator) value = numerator;
    else value = numerator !== null && denominator !== null && denominator > 0 ? numerator / denominator : null;
    const holds = value === null ? null : (check.min === undefined || value >= check.min) && (check.max === undefined || value <= check.max);
    return { label, numerator, denominator, value, holds };
  });
  // A forEach value with no data at all (e.g. a skipped server) is left out of the verdict.
  const judged = cases.filter((c) => c.holds !== null);
  return { check, cases, holds: judged.length === 0 ? null : judged.every((c) => c.holds === true) };
}

export function checksFor(scenarioName: string): ShapeCheck[] {
  return SHAPE_CHECKS.filter((c) => c.scenario === scenarioName);
}
