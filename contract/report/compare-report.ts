import type { DifferenceFinding } from '../compare-explanation.js';
import type { EChartsOption } from 'echarts';
import { cellLabel } from '../cells.js';
import { beyondNoise, compareMetricsOf, intervalKey, intervalWords, judgeInterval, pairPhases, type IntervalJudgement, type RatioInterval } from '../compare.js';
import { compareSummary, type SummaryRow } from '../compare-summary.js';
import { commonGroup, groupFigures, type GroupFigure } from '../group-stats.js';
import type { RunSummary } from '../results.js';
import { latencyOption, meanBarsOption, percentileOption, throughputOption, withTitle, type PercentileCurve } from './chart-options.js';
import type { Palette } from './palette.js';
import { buildRunReport, meanBars, phaseRows, runGroups, type CurveInput, type ReportChart, type RunReport, type RunReportInput } from './run-report.js';
import { timeExtentSec } from './series.js';

// Two or more runs side by side. Phases pair as the compare view pairs them (contract/compare.ts:
// server label, matrix cell and phase name), with the view's metrics and, where the engine could
// compute one, each ratio's 95 % bootstrap interval; a ratio is marked only when it is beyond noise.

export interface PairedMetric {
  key: string;
  /** the compare view's label, unit included */
  label: string;
  /** one value per run (null where that run has no such phase) */
  values: (number | null)[];
  /** run i against the first (i >= 1): values[i] / values[0], null where undefined */
  ratios: (number | null)[];
  /** the ratio's interval per run (index 0 always null) */
  intervals: (Pick<RatioInterval, 'low' | 'high'> | null)[];
  /**
   * what the ratio's interval lets Compare say (contract/compare.ts judgeInterval, as the view and
   * `loadscope compare` say it), and why in words; null at index 0, where there is no ratio, and for
   * a figure that has no interval (never judged)
   */
  judgements: (IntervalJudgement | null)[];
  why: (string | null)[];
  higherIsBetter: boolean;
}

export interface PhasePair {
  key: string;
  /** the server run's name (short cell name included) */
  server: string;
  /** the server's own label and its matrix cell's full key=value text ('' for one cell): CSV columns */
  label: string;
  cell: string;
  phase: string;
  /** an endpoint pair's endpoint (request name); null for the phase as a whole */
  endpoint: string | null;
  metrics: PairedMetric[];
}

export const ratioOf = (a: number | null, b: number | null): number | null => (a === null || b === null || a === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? null : b / a);

/** The compare view's pairs and metrics, with ratios and their intervals. */
export function pairedTable(runs: readonly RunSummary[], intervals: readonly RatioInterval[]): PhasePair[] {
  const byKey = new Map(intervals.map((i) => [intervalKey(i.pairKey, i.metric, i.run), i]));
  return pairPhases(runs).map((pair) => ({
    key: pair.key,
    server: pair.server,
    ...labelAndCell(runs, pair.runs),
    phase: pair.phase,
    endpoint: pair.endpoint,
    metrics: compareMetricsOf(pair.runs).map((m) => {
      const values = pair.runs.map((e) => (e === null ? null : (m.get(e.phase, e.engine) ?? null)));
      const ratios = values.map((v, i) => (i === 0 ? null : ratioOf(values[0] ?? null, v)));
      const full = values.map((_, i) => (i === 0 ? undefined : byKey.get(intervalKey(pair.key, m.key, i))));
      // judged only where the view judges: a ratio there, of a figure that has an interval
      const judged = (i: number) => ratios[i] !== null && m.interval !== null;
      return {
        key: m.key,
        label: m.label,
        values,
        ratios,
        intervals: full.map((iv) => (iv === undefined ? null : { low: iv.low, high: iv.high })),
        judgements: full.map((iv, i) => (judged(i) ? judgeInterval(iv) : null)),
        why: full.map((iv, i) => (judged(i) ? intervalWords(iv) : null)),
        higherIsBetter: m.higherIsBetter,
      };
    }),
  }));
}

/** The paired server run's own label and cell, from the first run that has it. */
function labelAndCell(runs: readonly RunSummary[], entries: readonly ({ targetId: number } | null)[]): { label: string; cell: string } {
  for (let i = 0; i < entries.length; i++) {
    const run = runs[i];
    const target = run?.targets.find((t) => t.id === entries[i]?.targetId);
    if (run !== undefined && target !== undefined) return { label: target.label, cell: run.cells.length <= 1 ? '' : cellLabel(run.cells, target.cellIndex) };
  }
  return { label: '', cell: '' };
}

/** better / worse where the interval excludes 1, '' otherwise (as the compare view colours it) */
export function ratioVerdict(metric: Pick<PairedMetric, 'higherIsBetter'>, interval: Pick<RatioInterval, 'low' | 'high'> | null): 'better' | 'worse' | '' {
  if (interval === null || !beyondNoise(interval)) return '';
  return interval.low > 1 === metric.higherIsBetter ? 'better' : 'worse';
}

export interface CompareReport {
  title: string;
  runs: RunReport[];
  pairs: PhasePair[];
  /** how the runs' scenarios differ from A's */
  differences: string[];
  charts: ReportChart[];
  /** the runs are one group of repeated runs: each figure across them */
  group: { id: number; figures: GroupFigure[] } | null;
  /** a row per server run and phase, its key figures side by side (contract/compare-summary.ts); [] for one server run */
  summary: SummaryRow[];
  /** what moved between A and each other run, and what moved with it (contract/compare-explanation.ts) */
  explanation: DifferenceFinding[];
}

export interface CompareInput {
  runs: readonly RunReportInput[];
  /** the engine's bootstrap intervals of the paired ratios (runs:compare) */
  intervals: readonly RatioInterval[];
  differences: readonly string[];
  /** what moved and what moved with it (runs:compare's explanation); absent: none said */
  explanation?: readonly DifferenceFinding[];
}

const letter = (i: number) => String.fromCharCode(65 + i);
export const runTag = (i: number, run: Pick<RunSummary, 'id'>) => `${letter(i)}: #${run.id}`;

export function buildCompareReport(input: CompareInput, p: Palette): CompareReport {
  const inputs = input.runs;
  const runs = inputs.map((i) => i.run);
  const groups = inputs.flatMap((inp, i) => runGroups(inp.run, inp.windows, inp.samples, `${letter(i)}`, inputs.slice(0, i).reduce((n, x) => n + x.run.targets.length, 0)));
  const maxSec = timeExtentSec(groups);
  const charts: ReportChart[] = [];
  const add = (id: string, title: string, option: EChartsOption) => charts.push({ id, title, option: withTitle(option, title, p) });
  add('compare-latency', 'total time p50 per 250 ms window', latencyOption({ groups, metric: 'total', log: false, percentiles: ['p50'], maxSec }, p));
  const curves: PercentileCurve[] = [];
  let g = 0;
  inputs.forEach((inp) => {
    for (const t of inp.run.targets) {
      const group = groups[g++]!;
      const c = inp.curves.find((x: CurveInput) => x.targetId === t.id && x.metric === 'total');
      if (c && c.points.length > 0) curves.push({ name: group.name, color: group.color, points: c.points });
    }
  });
  add('compare-percentiles', 'total time by percentile (all phases, HDR histograms)', percentileOption({ curves, log: false }, p));
  add('compare-throughput', 'Throughput and errors', throughputOption({ groups, maxSec }, p));
  add('compare-mean-bars', 'Mean wait, processing and total time', meanBarsOption(inputs.flatMap((inp, i) => meanBars(phaseRows(inp.run), `${letter(i)} `)), p));
  return {
    title: `Comparison of runs ${runs.map((r) => `#${r.id}`).join(', ')}`,
    runs: inputs.map((inp) => buildRunReport(inp, p)),
    pairs: pairedTable(runs, input.intervals),
    differences: [...input.differences],
    explanation: [...(input.explanation ?? [])],
    charts,
    group: groupOf(runs),
    summary: compareSummary(runs, input.intervals),
  };
}

function groupOf(runs: readonly RunSummary[]): CompareReport['group'] {
  const id = commonGroup(runs);
  return id === null ? null : { id, figures: groupFigures(runs).filter((f) => f.interval.n > 0) };
}
