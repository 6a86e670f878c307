import { figureOf } from './figures.js';
import type { RunSummary } from './results.js';

// A figure across repeated runs (`run --repeat N`): its mean and a 95 % interval for that mean from
// Student's t with N - 1 degrees of freedom. t rather than a bootstrap because N is small (3..10 runs
// is the usual) and a bootstrap over 3 values only ever resamples those 3; the runs are independent
// measurements of the same set-up, which is what the t-interval assumes.

/** Two-sided 95 % quantiles of Student's t, by degrees of freedom (1..30); beyond 30 the normal's 1.96 is within 2 %. */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export const t95 = (df: number): number => (df < 1 ? Number.NaN : (T95[df - 1] ?? 1.96));

export interface MeanInterval {
  n: number;
  mean: number;
  /** the 95 % interval of the mean; null with a single value */
  low: number | null;
  high: number | null;
}

/** `floor`: the least the figure can be (0 for times and rates): the interval is not drawn below it. */
export function meanInterval(values: readonly number[], floor = Number.NEGATIVE_INFINITY): MeanInterval {
  const xs = values.filter((v) => Number.isFinite(v));
  const n = xs.length;
  if (n === 0) return { n, mean: Number.NaN, low: null, high: null };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, low: null, high: null };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  return { n, mean, low: Math.max(floor, mean - half), high: mean + half };
}

export const GROUP_METRICS = ['throughput', 'total.p50', 'total.p90', 'total.p99', 'wait.p99', 'processing.p99', 'ttfb.p99'] as const;
export type GroupMetric = (typeof GROUP_METRICS)[number];

/** How each figure is named in tables (the CLI's and the workbench's). */
export const GROUP_METRIC_LABELS: Record<GroupMetric, string> = {
  throughput: 'req/s',
  'total.p50': 'total p50 (ms)',
  'total.p90': 'total p90 (ms)',
  'total.p99': 'total p99 (ms)',
  'wait.p99': 'wait p99 (ms)',
  'processing.p99': 'processing p99 (ms)',
  'ttfb.p99': 'ttfb p99 (ms)',
};

export interface GroupFigure {
  server: string;
  phase: string;
  metric: GroupMetric;
  /** the figure of each run, in run order (null where that run had no such phase) */
  values: (number | null)[];
  interval: MeanInterval;
}

// as every view reads them: no wait without processing (runs stored before held wait = total), no ttfb before it was measured
const metricOf = (p: RunSummary['targets'][number]['phases'][number], metric: GroupMetric): number | null => figureOf(p, metric);

/** Every figure of a group's runs, paired by server name and phase name (the runs ran one scenario). */
export function groupFigures(runs: readonly Pick<RunSummary, 'targets'>[]): GroupFigure[] {
  const keys: [string, string][] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const t of run.targets) {
      for (const p of t.phases) {
        const key = `${t.name}\u0000${p.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        keys.push([t.name, p.name]);
      }
    }
  }
  return keys.flatMap(([server, phase]) =>
    GROUP_METRICS.map((metric) => {
      const values = runs.map((run) => {
        const p = run.targets.find((t) => t.name === server)?.phases.find((x) => x.name === phase);
        return p === undefined ? null : metricOf(p, metric);
      });
      // times and rates are never negative: a wide interval stops at 0
      return { server, phase, metric, values, interval: meanInterval(values.filter((v): v is number => v !== null), 0) };
    }),
  );
}

/** The group all these runs belong to, or null when they are not all runs of one group (two at least). */
export function commonGroup(runs: readonly Pick<RunSummary, 'group'>[]): number | null {
  const id = runs[0]?.group?.id;
  return id !== undefined && runs.length >= 2 && runs.every((r) => r.group?.id === id) ? id : null;
}
