import type { ReportTableResult } from '../../contract/results.js';
import { METRIC_NAMES, type MetricName, type ReportTable, type Scenario } from '../../contract/scenario.js';
import { getPath, isPlainObject } from '../scenario/param-path.js';
import { aggregateMetric, collectPoints, isTimeMetric, type Point, type ReportRun } from './points.js';
import { defaultPhaseName } from '../../contract/phase.js';

// A scenario's declared report tables (`report.tables`), computed from a run's per-server, per-phase
// results and its cells' matrix parameters: the write-up's own table, from our measurements.
//
// A table has row dimensions and one column dimension. A dimension is 'server' (the server's label),
// 'phase' (the phase's name), 'metric' (one of the table's metrics) or a matrix path (the cell's value
// for that matrix entry, e.g. `phases[1].count`). Rows are every combination of row values that
// occurs, ordered dimension by dimension in the order the values first occur (matrix order, server
// order, phase order). Without a 'metric' dimension, one metric gives one value per column, and
// several metrics give one column per column value and metric. `phase` limits a table to one phase.

export type { ReportRun } from './points.js';

const META_DIMS = new Set(['server', 'phase', 'metric']);

export function renderReport(scenario: Pick<Scenario, 'phases' | 'report'> & Partial<Pick<Scenario, 'matrix'>>, run: ReportRun): ReportTableResult[] {
  const tables = scenario.report?.tables ?? [];
  if (tables.length === 0) return [];
  const points = collectPoints(scenario, run);
  return tables.map((table) => renderTable(table, points, scenario));
}

/** The heading of a dimension: the meta dims as they are, a path by its last name (`phases[1].count` -> count). */
export function dimName(dim: string): string {
  if (META_DIMS.has(dim)) return dim;
  const names = dim.match(/[A-Za-z_$][\w$]*/g);
  return names?.[names.length - 1] ?? dim;
}

/** How a matrix value reads in a table: numbers and strings bare, server and phase lists by their names. */
export function valueLabel(value: unknown): string {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => isPlainObject(v) && typeof v.architecture === 'string')) {
      return value.map((v) => String((v as Record<string, unknown>).label ?? (v as Record<string, unknown>).architecture)).join(' + ');
    }
    if (value.length > 0 && value.every((v) => isPlainObject(v) && typeof v.executor === 'string')) {
      return value.map((v, i) => String((v as Record<string, unknown>).name ?? defaultPhaseName(i))).join(' -> ');
    }
    return value.map(valueLabel).join(', ');
  }
  if (isPlainObject(value)) {
    if (typeof value.label === 'string') return value.label;
    if (typeof value.architecture === 'string') return value.architecture;
    if (typeof value.name === 'string') return value.name;
  }
  return JSON.stringify(value);
}

interface Entry {
  point: Point;
  /** the metric this entry stands for, where 'metric' is a dimension */
  metric: MetricName | null;
}

function dimValue(dim: string, entry: Entry, scenario: object): string {
  if (dim === 'server') return entry.point.server;
  if (dim === 'phase') return entry.point.phase;
  if (dim === 'metric') return entry.metric ?? '';
  if (Object.hasOwn(entry.point.params, dim)) return valueLabel(entry.point.params[dim]);
  // Not a matrix entry: the scenario's own (constant) value, so a table can still name it.
  try {
    return valueLabel(getPath(scenario, dim));
  } catch {
    return '-';
  }
}

/** Rounds away float noise (6 significant digits) without hiding real differences. */
function tidy(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  return Number(value.toPrecision(6));
}

export function renderTable(table: ReportTable, allPoints: readonly Point[], scenario: object): ReportTableResult {
  const points = table.phase === undefined ? allPoints : allPoints.filter((p) => p.phase === table.phase);
  const metricIsDim = table.rows.includes('metric') || table.columns === 'metric';
  const entries: Entry[] = metricIsDim
    ? points.flatMap((point) => table.metrics.map((metric) => ({ point, metric })))
    : points.map((point) => ({ point, metric: null }));

  // Every dimension's values in the order they first occur.
  const order = new Map<string, Map<string, number>>();
  const labelled = entries.map((entry) => {
    const values: Record<string, string> = {};
    for (const dim of [...table.rows, table.columns]) {
      const v = dimValue(dim, entry, scenario);
      values[dim] = v;
      let seen = order.get(dim);
      if (!seen) order.set(dim, (seen = new Map()));
      if (!seen.has(v)) seen.set(v, seen.size);
    }
    return { entry, values };
  });
  const rank = (dim: string, v: string) => order.get(dim)?.get(v) ?? 0;

  const rowKeys = new Map<string, string[]>();
  for (const { values } of labelled) {
    const key = table.rows.map((d) => values[d]!);
    rowKeys.set(JSON.stringify(key), key);
  }
  const rows = [...rowKeys.values()].sort((a, b) => {
    for (let i = 0; i < table.rows.length; i++) {
      const diff = rank(table.rows[i]!, a[i]!) - rank(table.rows[i]!, b[i]!);
      if (diff !== 0) return diff;
    }
    return 0;
  });
  const columnValues = [...(order.get(table.columns)?.keys() ?? [])];

  // Columns: one per column value, or (several metrics, no metric dimension) one per value and metric.
  const columns: Array<{ value: string; metric: MetricName | null; header: string }> = [];
  for (const value of columnValues) {
    if (metricIsDim || table.metrics.length === 1) columns.push({ value, metric: null, header: value });
    else for (const metric of table.metrics) columns.push({ value, metric, header: `${value} ${metric}` });
  }

  const scale = (metric: MetricName, v: number | null) => (v !== null && table.unit === 's' && isTimeMetric(metric) ? v / 1000 : v);
  const body = rows.map((key) => {
    const inRow = labelled.filter(({ values }) => table.rows.every((d, i) => values[d] === key[i]));
    const cells = columns.map((col) => {
      const matching = inRow.filter(({ values }) => values[table.columns] === col.value);
      if (matching.length === 0) return null;
      const metric = col.metric ?? matching[0]!.entry.metric ?? table.metrics[0]!;
      const pts = matching.filter(({ entry }) => entry.metric === null || entry.metric === metric).map(({ entry }) => entry.point);
      return tidy(scale(metric, aggregateMetric(pts, metric)));
    });
    return [...key, ...cells];
  });

  // Units where the values are: a metric named in a header or a row says its own unit, and the
  // title carries the time unit only when every figure in the table is a time.
  const named = (cell: string) => (isMetricName(cell) ? metricLabel(cell, table.unit) : cell);
  const metricRow = table.rows.indexOf('metric');
  return {
    title: table.title,
    unit: table.metrics.every(isTimeMetric) ? table.unit : '',
    header: [...table.rows.map(dimName), ...columns.map((c) => (c.metric === null ? named(c.header) : `${c.value} ${metricLabel(c.metric, table.unit)}`))],
    rows: metricRow < 0 ? body : body.map((row) => row.map((cell, i) => (i === metricRow && typeof cell === 'string' ? named(cell) : cell))),
  };
}

const isMetricName = (s: string): s is MetricName => (METRIC_NAMES as readonly string[]).includes(s);

/** A metric as a table names it, with its unit: "wait.mean (ms)", "throughput (req/s)", "duration (s)", "requests". */
export function metricLabel(metric: MetricName, unit: 'ms' | 's'): string {
  if (metric === 'count') return 'requests';
  if (metric === 'errors') return 'errors';
  if (metric === 'throughput') return 'throughput (req/s)';
  if (metric === 'durationMs') return `duration (${unit})`;
  return `${metric} (${unit})`;
}
