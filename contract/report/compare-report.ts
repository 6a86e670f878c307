import type { EChartsOption } from 'echarts';
import type { RunSummary } from '../results.js';
import { latencyOption, meanBarsOption, percentileOption, throughputOption, withTitle, type PercentileCurve } from './chart-options.js';
import type { Palette } from './palette.js';
import { buildRunReport, meanBars, phaseRows, runGroups, type CurveInput, type PhaseRow, type ReportChart, type RunReport, type RunReportInput, type Stats5 } from './run-report.js';
import { timeExtentSec } from './series.js';

// Two or more runs side by side. Phases pair across runs by server label, matrix cell and phase
// name (the pairing the compare view moves to in issue 11; written against this small interface so
// that pairing can replace `pairPhases` without touching the renderers).

export interface PairedMetric {
  name: string;
  unit: string;
  /** one value per run (null where that run has no such phase) */
  values: (number | null)[];
  /** run i against the first (i >= 1): values[i] / values[0], null where undefined */
  ratios: (number | null)[];
  higherIsBetter: boolean;
}

export interface PhasePair {
  key: string;
  server: string;
  cell: string;
  phase: string;
  /** the row of each run, null where that run has no such phase */
  rows: (PhaseRow | null)[];
  metrics: PairedMetric[];
}

const pairKey = (r: PhaseRow) => JSON.stringify([r.label, r.cell, r.phase]);

const METRICS: { name: string; unit: string; get: (r: PhaseRow) => number | null; higherIsBetter?: boolean }[] = [
  { name: 'requests', unit: 'count', get: (r) => r.count, higherIsBetter: true },
  { name: 'errors', unit: 'count', get: (r) => r.errorsTotal },
  { name: 'throughput', unit: 'req/s', get: (r) => r.throughput, higherIsBetter: true },
  ...(['total', 'wait', 'processing'] as const).flatMap((m) =>
    (['mean', 'p50', 'p90', 'p99', 'max'] as const).map((s) => ({ name: `${m} ${s}`, unit: 'ms', get: (r: PhaseRow) => (r.latency[m] as Stats5 | null)?.[s] ?? null })),
  ),
];

export const ratioOf = (a: number | null, b: number | null): number | null => (a === null || b === null || a === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? null : b / a);

/** Pairs every run's phases by (server label, cell, phase name), in the order they first occur. */
export function pairPhases(runs: readonly RunSummary[]): PhasePair[] {
  const perRun = runs.map((run) => new Map(phaseRows(run).map((r) => [pairKey(r), r])));
  const keys = [...new Set(perRun.flatMap((m) => [...m.keys()]))];
  return keys.map((key) => {
    const rows = perRun.map((m) => m.get(key) ?? null);
    const any = rows.find((r) => r !== null)!;
    const metrics = METRICS.map((m) => {
      const values = rows.map((r) => (r === null ? null : m.get(r)));
      return { name: m.name, unit: m.unit, values, ratios: values.map((v, i) => (i === 0 ? null : ratioOf(values[0] ?? null, v))), higherIsBetter: m.higherIsBetter === true };
    });
    return { key, server: any.server, cell: any.cell, phase: any.phase, rows, metrics };
  });
}

export interface CompareReport {
  title: string;
  runs: RunReport[];
  pairs: PhasePair[];
  charts: ReportChart[];
}

const letter = (i: number) => String.fromCharCode(65 + i);
export const runTag = (i: number, run: Pick<RunSummary, 'id'>) => `${letter(i)}: #${run.id}`;

export function buildCompareReport(inputs: readonly RunReportInput[], p: Palette): CompareReport {
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
    pairs: pairPhases(runs),
    charts,
  };
}
