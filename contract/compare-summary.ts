import { cellTitle } from './cells.js';
import { COMPARE_METRICS, intervalKey, judgeInterval, pairPhases, type CompareMetric, type IntervalJudgement, type RatioInterval } from './compare.js';
import { figureOf } from './figures.js';
import { fitNames } from './name-fit.js';
import type { PhaseResult, RunEngine, RunSummary } from './results.js';

// A matrix Compare at a glance (issue 36: eight tables of fourteen rows, nothing side by side): one
// row per paired server run and phase, its key figures for every run compared and each run's ratio
// to A, judged by the same intervals as the paired tables (contract/compare.ts). The view and the
// compare HTML report both show this one table.

export interface SummaryColumn {
  key: string;
  /** the column's heading, unit included */
  label: string;
  /** the figure's ratios are judged against the noise (an interval), coloured better or worse */
  metric: CompareMetric | null;
  get: (p: PhaseResult, engine: RunEngine) => number | null;
}

const metric = (key: string): CompareMetric => COMPARE_METRICS.find((m) => m.key === key)!;
const figure = (key: string, label: string): SummaryColumn => {
  const m = metric(key);
  return { key, label, metric: m, get: (p, engine) => m.get(p, engine) ?? null };
};

/** The figures a row gives for each run: throughput, the median and the tail, the errors. */
export const SUMMARY_COLUMNS: readonly SummaryColumn[] = [
  figure('throughput', 'throughput (req/s)'),
  figure('total.p50', 'total p50 (ms)'),
  figure('total.p99', 'total p99 (ms)'),
  { key: 'errors', label: 'errors', metric: null, get: (p) => figureOf(p, 'errors') },
];

export interface SummaryCell {
  /** one per run compared, null where that run has no such server run and phase */
  values: (number | null)[];
  /** run i against A (index 0 null): values[i] / values[0], null where undefined */
  ratios: (number | null)[];
  /** the ratio's judgement against the noise (index 0 null; null for a figure without an interval) */
  judgements: (IntervalJudgement | null)[];
  /** the interval of each ratio (index 0 undefined) */
  intervals: (RatioInterval | undefined)[];
}

export interface SummaryRow {
  /** the paired tables' key (server run / phase) */
  key: string;
  /** the server run's name as the tables give it */
  server: string;
  /** the same name fitted: parts every row shares dropped, wrapped rather than cut (contract/name-fit.ts) */
  short: string;
  /** the name in full, its matrix cell as key=value: a hover */
  title: string;
  phase: string;
  /** by SUMMARY_COLUMNS' order */
  cells: SummaryCell[];
}

/** The paired server run's full name (cells.ts cellTitle), from the first run that has it. */
function titleOf(runs: readonly Pick<RunSummary, 'targets' | 'cells'>[], entries: readonly ({ targetId: number } | null)[]): string {
  const i = entries.findIndex((e) => e !== null);
  const t = runs[i]?.targets.find((x) => x.id === entries[i]?.targetId);
  return t === undefined ? '' : cellTitle(t.label, runs[i]!.cells, t.cellIndex);
}

const ratioOf = (a: number | null, b: number | null): number | null => (a === null || b === null || a === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? null : b / a);

/** The widest a row's name is (characters per line, on two lines): a column a table keeps narrow. */
const NAME_WIDTH = 34;

/**
 * One row per paired server run and phase (no endpoints: their phase stands for them), or [] when
 * the runs hold a single server run: their paired table already is the summary.
 */
export function compareSummary(runs: readonly (Pick<RunSummary, 'targets' | 'cells'> & { engine?: RunEngine })[], intervals: readonly RatioInterval[]): SummaryRow[] {
  const pairs = pairPhases(runs).filter((p) => p.endpoint === null);
  if (new Set(pairs.map((p) => p.server)).size <= 1) return [];
  const byKey = new Map(intervals.map((i) => [intervalKey(i.pairKey, i.metric, i.run), i]));
  const servers = [...new Set(pairs.map((p) => p.server))];
  const fitted = fitNames(servers, { max: NAME_WIDTH, lines: 2 });
  const short = new Map(servers.map((s, i) => [s, fitted[i]!]));
  return pairs.map((pair) => ({
    key: pair.key,
    server: pair.server,
    short: short.get(pair.server) ?? pair.server,
    title: titleOf(runs, pair.runs),
    phase: pair.phase,
    cells: SUMMARY_COLUMNS.map((c) => {
      const values = pair.runs.map((e) => (e === null ? null : c.get(e.phase, e.engine)));
      const ratios = values.map((v, i) => (i === 0 ? null : ratioOf(values[0] ?? null, v)));
      const found = values.map((_, i) => (i === 0 || c.metric === null ? undefined : byKey.get(intervalKey(pair.key, c.key, i))));
      return { values, ratios, intervals: found, judgements: ratios.map((r, i) => (r === null || c.metric === null || c.metric.interval === null ? null : judgeInterval(found[i]))) };
    }),
  }));
}
