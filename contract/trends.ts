import { z } from 'zod';
import { BaselineProfile } from './baselines.js';
import { figureOf } from './figures.js';
import { endpointAsPhase, shownEndpoints } from './endpoints.js';
import { meanInterval } from './group-stats.js';
import type { PhaseResult, RunStatus, RunSummary } from './results.js';

// A scenario's figures over its last runs (issue 27): one column per run, a repeated group one column
// whose figure is the mean of its runs with the 95 % interval between them (contract/group-stats.ts),
// one row per server, phase and endpoint. Made from stored summaries only (never request rows), so a
// trend over twenty runs of millions of requests reads twenty summaries.

/** A request's figures, then what arrived on streams (issue 41): a run or a phase without streams has no point there (figureOf: null), never a 0. */
export const REQUEST_TREND_METRICS = ['total.p50', 'total.p90', 'total.p99', 'throughput', 'errors.rate', 'wait.p99', 'ttfb.p99'] as const;
export const STREAM_TREND_METRICS = ['ttfe.p99', 'gap.p99', 'rtt.p99', 'messages.rate'] as const;
export const TREND_METRICS = [...REQUEST_TREND_METRICS, ...STREAM_TREND_METRICS] as const;
export const TrendMetric = z.enum(TREND_METRICS);
export type TrendMetric = z.infer<typeof TrendMetric>;

/** A stream figure's trend has a row only where a phase or endpoint opened streams. */
const isStreamMetric = (m: TrendMetric): boolean => (STREAM_TREND_METRICS as readonly string[]).includes(m);

/** How each metric is named in tables, axes and the CLI. */
export const TREND_METRIC_LABELS: Record<TrendMetric, string> = {
  'total.p50': 'total p50 (ms)',
  'total.p90': 'total p90 (ms)',
  'total.p99': 'total p99 (ms)',
  throughput: 'throughput (req/s)',
  'errors.rate': 'error rate',
  'wait.p99': 'wait p99 (ms)',
  'ttfb.p99': 'ttfb p99 (ms)',
  'ttfe.p99': 'time to first event p99 (ms)',
  'gap.p99': 'gap between messages p99 (ms)',
  'rtt.p99': 'round trip p99 (ms)',
  'messages.rate': 'messages received (/s)',
};

export const TREND_LAST_MAX = 200;

/**
 * The runs a trend shows: completed ones, and those that ended without completing (a server that
 * failed or crashed, a Loadscope that stopped mid-run), marked (issue 36). A cancelled run is left
 * out: someone stopped it on purpose, it says nothing about the target.
 */
export const TREND_STATUSES = ['completed', 'failed', 'interrupted'] as const satisfies readonly RunStatus[];
export type TrendStatus = (typeof TREND_STATUSES)[number];

/** A run's status as a trend column keeps it (the store reads only these). */
export function trendStatusOf(run: Pick<RunSummary, 'status'>): TrendStatus {
  return TREND_STATUSES.find((s) => s === run.status) ?? 'completed';
}

/** The status of a column whose run did not complete ('failed', 'interrupted'), else null. */
export function unfinishedStatus(c: Pick<TrendColumn, 'status'>): Exclude<TrendStatus, 'completed'> | null {
  return c.status === undefined || c.status === 'completed' ? null : c.status;
}

export const TrendRequest = z.strictObject({
  scenarioName: z.string().min(1),
  metric: TrendMetric.default('total.p99'),
  /** how many columns (a repeated group is one) */
  last: z.number().int().min(1).max(TREND_LAST_MAX).default(20),
  /** quick or full runs; absent: the newest run's profile (a quick and a full run are different loads) */
  profile: BaselineProfile.optional(),
});

export const TrendValue = z.object({
  /** a run's figure, or a group's mean */
  value: z.number(),
  /** a group's 95 % interval between its runs; null for a single run */
  low: z.number().nullable(),
  high: z.number().nullable(),
});
export type TrendValue = z.infer<typeof TrendValue>;

export const TrendColumn = z.object({
  /** the run, or a group's runs in order */
  runIds: z.array(z.number()),
  createdAt: z.string(),
  /** the user's name of the (first) run, else its title */
  label: z.string(),
  groupId: z.number().nullable(),
  /** the run's status: a column that did not complete is one run, marked on the chart (issue 36); absent: completed */
  status: z.enum(TREND_STATUSES).optional(),
  /** what a run of the column failed, to mark it (issue 36): its thresholds, its regression verdict; absent or [] when none */
  failed: z.array(z.enum(['thresholds', 'regression'])).optional(),
});
export type TrendColumn = z.infer<typeof TrendColumn>;
export type TrendFailure = NonNullable<TrendColumn['failed']>[number];

/** What the runs of a column failed: a threshold, a regression rule (`run --baseline`); [] when none. */
export function columnFailures(runs: readonly Pick<RunSummary, 'thresholds' | 'regression'>[]): TrendFailure[] {
  const out: TrendFailure[] = [];
  if (runs.some((r) => r.thresholds.some((t) => !t.passed))) out.push('thresholds');
  if (runs.some((r) => r.regression?.failed === true)) out.push('regression');
  return out;
}

export const TrendRow = z.object({
  server: z.string(),
  phase: z.string(),
  /** an endpoint of a split phase (contract/endpoints.ts shownEndpoints), else null: the phase */
  endpoint: z.string().nullable(),
  /** per column, oldest first; null where that run had no such server, phase or endpoint */
  values: z.array(TrendValue.nullable()),
  /** the pinned baseline's figure (a group's with its interval: the band), null without one */
  baseline: TrendValue.nullable(),
});
export type TrendRow = z.infer<typeof TrendRow>;

export const Trend = z.object({
  scenarioName: z.string(),
  metric: TrendMetric,
  profile: BaselineProfile.nullable(),
  columns: z.array(TrendColumn),
  rows: z.array(TrendRow),
  /** the pinned baseline's runs, or null when none is pinned for this scenario and profile */
  baselineRunIds: z.array(z.number()).nullable(),
});
export type Trend = z.infer<typeof Trend>;

type Phase = RunSummary['targets'][number]['phases'][number];

/** One metric of a phase (or an endpoint read as one), as every view reads it (contract/figures.ts); null where not measured. */
export function trendMetricOf(engine: RunSummary['engine'], p: PhaseResult, metric: TrendMetric): number | null {
  return figureOf(p, metric, engine);
}

const key = (server: string, phase: string, endpoint: string | null) => JSON.stringify([server, phase, endpoint]);

/** Each server, phase and split endpoint of a run, with its figure. */
function runFigures(run: RunSummary, metric: TrendMetric): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const t of run.targets) {
    for (const p of t.phases as Phase[]) {
      out.set(key(t.name, p.name, null), trendMetricOf(run.engine, p, metric));
      for (const e of shownEndpoints(p)) out.set(key(t.name, p.name, e.name), trendMetricOf(run.engine, endpointAsPhase(p, e), metric));
    }
  }
  return out;
}

/** A column's figure: one run's, or its group's mean with the interval between its runs. */
function columnValue(figures: readonly Map<string, number | null>[], k: string, metric: TrendMetric): TrendValue | null {
  const xs = figures.map((f) => f.get(k)).filter((v): v is number => v !== undefined && v !== null && Number.isFinite(v));
  if (xs.length === 0) return null;
  if (figures.length === 1) return { value: xs[0]!, low: null, high: null };
  // rates and times are never negative: a wide interval stops at 0 (an error rate at 1 too)
  const m = meanInterval(xs, 0);
  const cap = (v: number | null) => (v === null || metric !== 'errors.rate' ? v : Math.min(1, v));
  return { value: m.mean, low: m.low, high: cap(m.high) };
}

/**
 * A stream figure's rows: /fib beside the streams is no row of rtt.p99 (an empty line and table
 * column would say nothing), and a phase with one endpoint left is no row either: its figure is that
 * endpoint's in every column, a second line drawn exactly under the endpoint's.
 */
function streamRowsOf(rows: readonly TrendRow[]): TrendRow[] {
  const timed = rows.filter((r) => r.baseline !== null || r.values.some((v) => v !== null));
  const endpointsOf = (r: TrendRow) => timed.filter((e) => e.endpoint !== null && e.server === r.server && e.phase === r.phase).length;
  return timed.filter((r) => r.endpoint !== null || endpointsOf(r) !== 1);
}

/**
 * The trend of `metric` over `columns` (oldest first; each the summaries of one run or of a group's
 * runs) with the baseline's runs beside it. Rows are in order of first appearance.
 */
export function trendOf(
  scenarioName: string,
  metric: TrendMetric,
  profile: BaselineProfile | null,
  columns: readonly { column: TrendColumn; runs: readonly RunSummary[] }[],
  baseline: readonly RunSummary[] | null,
): Trend {
  const perColumn = columns.map((c) => c.runs.map((r) => runFigures(r, metric)));
  const base = baseline === null ? null : baseline.map((r) => runFigures(r, metric));
  const order: string[] = [];
  const seen = new Set<string>();
  for (const figures of perColumn) {
    for (const f of figures) {
      for (const k of f.keys()) {
        if (seen.has(k)) continue;
        seen.add(k);
        order.push(k);
      }
    }
  }
  const all = order.map((k) => {
    const [server, phase, endpoint] = JSON.parse(k) as [string, string, string | null];
    return {
      server,
      phase,
      endpoint,
      values: perColumn.map((figures) => columnValue(figures, k, metric)),
      baseline: base === null ? null : columnValue(base, k, metric),
    };
  });
  const rows = isStreamMetric(metric) ? streamRowsOf(all) : all;
  return { scenarioName, metric, profile, columns: columns.map((c) => c.column), rows, baselineRunIds: baseline === null ? null : baseline.map((r) => r.id) };
}
