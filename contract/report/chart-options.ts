import type { BarSeriesOption, EChartsOption, LineSeriesOption } from 'echarts';
import { fitNames, NAME_SEP } from '../name-fit.js';
import { enUsNumber } from '../number-text.js';
import { estimatedIn } from './export-layout.js';
import { ERROR_COLOR, FONT_FAMILY, METRIC_COLORS, type Palette } from './palette.js';
import { errorsPerSecond, seconds, type SeriesGroup } from './series.js';
import type { StreamSample } from '../stream-names.js';
import type { WindowLatency } from '../results.js';

// Every chart's ECharts option, as data (no functions), so the same option is drawn on screen, in
// the HTML report (embedded as JSON) and in the PNGs (server-side). The screen adds its tooltip
// formatters on top; colours, axis names with units and series are decided here only.

/**
 * A latency over time: the server's split (wait, processing) or what the client measured (ttfb,
 * transfer), or what arrived on streams (issue 41: ttfe, gap, rtt, from the window's stream figures).
 */
export type LatencyMetric = 'total' | 'wait' | 'processing' | 'ttfb' | 'transfer' | StreamSample;

/** A window's figures of a latency metric, or null where it has none (no wait without processing: windows stored before that rule hold wait = total there). */
export function windowMetric(w: SeriesGroup['windows'][number], metric: LatencyMetric): WindowLatency | null {
  if (metric === 'ttfe' || metric === 'gap' || metric === 'rtt') return w.stream?.[metric] ?? null;
  if (metric === 'wait' && w.processing === null) return null;
  return w[metric] ?? null;
}
export type WindowPercentile = 'p50' | 'p90' | 'p99';
export type ServerMetric = 'cpu' | 'memory';

const PERCENTILES = [
  { key: 'p50', dash: 'solid', width: 2 },
  { key: 'p90', dash: 'dashed', width: 1.5 },
  { key: 'p99', dash: 'dotted', width: 1.5 },
] as const;

export const AXIS_NAMES = {
  time: 'time since server start (s)',
  latency: (metric: LatencyMetric, log: boolean) => `${metric} time (ms)${log ? ', log' : ''}`,
  throughput: 'throughput (req/s)',
  throughputErrors: 'requests, errors (req/s)',
  inFlight: 'in flight (requests)',
  cpu: 'server CPU (%, 100 = 1 core)',
  rss: 'server RSS (MB)',
  processes: 'processes',
  meanTime: 'mean time (ms)',
  percentile: 'percentile (log scale toward the tail)',
  percentileLatency: (log: boolean) => `latency (ms)${log ? ', log' : ''}`,
} as const;

export function axisStyle(p: Palette) {
  return {
    nameTextStyle: { color: p.muted, fontSize: 12 },
    axisLabel: { color: p.muted, fontSize: 11 },
    axisLine: { lineStyle: { color: p.line } },
    axisTick: { lineStyle: { color: p.line } },
    splitLine: { lineStyle: { color: p.split } },
  };
}

export function timeAxis(p: Palette, maxSec?: number) {
  return { type: 'value' as const, name: AXIS_NAMES.time, nameLocation: 'middle' as const, nameGap: 26, min: 0, max: maxSec, ...axisStyle(p), splitLine: { show: false } };
}

export function valueAxis(p: Palette, name: string, opts: { log?: boolean; position?: 'left' | 'right'; min?: number } = {}) {
  const style = axisStyle(p);
  return {
    type: opts.log === true ? ('log' as const) : ('value' as const),
    name,
    nameLocation: 'middle' as const,
    nameGap: 46,
    position: opts.position,
    min: opts.min,
    ...style,
    // a value axis laid across a narrow panel (the mean bars' rows at 1024 px) would print "1,000" over "1,200"
    axisLabel: { ...style.axisLabel, hideOverlap: true },
    splitLine: opts.position === 'right' ? { show: false } : style.splitLine,
  };
}

export function baseOption(p: Palette): EChartsOption {
  return {
    backgroundColor: p.background,
    animation: false,
    textStyle: { color: p.text, fontFamily: FONT_FAMILY },
    grid: { left: 64, right: 28, top: 52, bottom: 44, containLabel: false },
    legend: { top: 0, left: 'center', type: 'scroll', textStyle: { color: p.text, fontSize: 12 }, itemWidth: 18, itemHeight: 8, pageTextStyle: { color: p.muted } },
    // confined to the chart: a tooltip past the chart's edge is cut by the panel around it
    tooltip: { trigger: 'axis', confine: true, backgroundColor: p.tooltipBackground, borderColor: p.tooltipBorder, textStyle: { color: p.tooltipText, fontSize: 12 }, axisPointer: { lineStyle: { color: '#56607a' } } },
  };
}

/** The phase starts as vertical dashed lines, labelled once even where several servers share them. */
export function phaseMarkLine(groups: readonly SeriesGroup[], p: Palette) {
  const seen: number[] = [];
  const data: { xAxis: number; name: string }[] = [];
  for (const g of groups) {
    for (const ph of g.phases) {
      if (seen.some((t) => Math.abs(t - ph.tMs) < 150)) continue;
      seen.push(ph.tMs);
      data.push({ xAxis: seconds(ph.tMs), name: ph.name });
    }
  }
  return {
    symbol: 'none',
    silent: true,
    animation: false,
    lineStyle: { color: p.phaseLine, type: 'dashed' as const, width: 1, opacity: 0.7 },
    // left-aligned from the line's top, so a phase starting at 0 s clears the y axis' top label
    label: { formatter: '{b}', color: p.phaseLabel, fontSize: 11, position: 'end' as const, distance: 4, align: 'left' as const, padding: [0, 0, 0, 4] },
    data,
  };
}

export interface LatencyInput {
  groups: readonly SeriesGroup[];
  metric: LatencyMetric;
  log: boolean;
  /** which percentile lines to draw (all three when absent) */
  percentiles?: readonly WindowPercentile[];
  maxSec?: number;
  /** how many server runs the chart will show (a live run knows before they start) */
  servers?: number;
}

/** Legends name the servers when there are (or will be) several; one server's legend names its lines. One meaning for the whole run. */
function byServer(input: { groups: readonly SeriesGroup[]; servers?: number }): boolean {
  return Math.max(input.groups.length, input.servers ?? 0) > 1;
}

/** p50 / p90 / p99 of one latency metric per 250 ms window, one colour per server run. */
export function latencyOption(input: LatencyInput, p: Palette): EChartsOption {
  const { groups, metric, log, percentiles } = input;
  const series: LineSeriesOption[] = [];
  const one = percentiles?.length === 1;
  const named = byServer(input);
  for (const g of groups) {
    for (const pc of PERCENTILES) {
      if (percentiles !== undefined && !percentiles.includes(pc.key)) continue;
      const data: [number, number][] = [];
      for (const w of g.windows) {
        const stats = windowMetric(w, metric);
        if (!stats) continue;
        data.push([seconds(w.tMs), log ? Math.max(stats[pc.key], 0.01) : stats[pc.key]]);
      }
      series.push({
        type: 'line',
        // several servers: one legend entry per server; the dash tells the percentile apart
        id: `${g.key}|${pc.key}`,
        name: named ? g.name : pc.key,
        data,
        showSymbol: false,
        sampling: 'lttb',
        lineStyle: { color: g.color, type: one ? 'solid' : pc.dash, width: one ? 2 : pc.width },
        itemStyle: { color: g.color },
        markLine: series.length === 0 ? phaseMarkLine(groups, p) : undefined,
      });
    }
  }
  return { ...baseOption(p), xAxis: timeAxis(p, input.maxSec), yAxis: valueAxis(p, AXIS_NAMES.latency(metric, log), { log }), series };
}

/** Completed requests per second and errors per second, per 250 ms window. */
export function throughputOption(input: { groups: readonly SeriesGroup[]; maxSec?: number; servers?: number }, p: Palette): EChartsOption {
  const { groups } = input;
  const one = !byServer(input);
  const series: LineSeriesOption[] = [];
  let anyErrors = false;
  for (const g of groups) {
    series.push({
      type: 'line',
      name: one ? 'throughput' : g.name,
      data: g.windows.map((w) => [seconds(w.tMs), w.throughput]),
      showSymbol: false,
      sampling: 'lttb',
      lineStyle: { color: g.color, width: 2 },
      itemStyle: { color: g.color },
      areaStyle: one ? { color: g.color, opacity: 0.12 } : undefined,
      markLine: series.length === 0 ? phaseMarkLine(groups, p) : undefined,
    });
    const errors = errorsPerSecond(g.windows);
    if (errors.some(([, e]) => e > 0)) {
      anyErrors = true;
      series.push({ type: 'line', id: `${g.key}|errors`, name: 'errors', data: errors, showSymbol: false, lineStyle: { color: ERROR_COLOR, width: 1.5, type: 'dashed' }, itemStyle: { color: ERROR_COLOR } });
    }
  }
  return { ...baseOption(p), xAxis: timeAxis(p, input.maxSec), yAxis: valueAxis(p, anyErrors ? AXIS_NAMES.throughputErrors : AXIS_NAMES.throughput, { min: 0 }), series };
}

/** Requests sent and not yet answered at the end of each window; dashed: open-loop arrivals queued at the client (no free slot yet). */
export function inFlightOption(input: { groups: readonly SeriesGroup[]; maxSec?: number; servers?: number; /** a ramp's planned users by group key, [s, users] (null: a gap) */ plannedUsers?: ReadonlyMap<string, readonly [number, number | null][]>; /** a ramp's active users as the driver counted them, same shape */ activeUsers?: ReadonlyMap<string, readonly [number, number | null][]> }, p: Palette): EChartsOption {
  const { groups } = input;
  const one = !byServer(input);
  const inFlight: LineSeriesOption[] = groups.map((g, i) => ({
    type: 'line',
    name: one ? 'in flight' : g.name,
    step: 'end',
    data: g.windows.map((w) => [seconds(w.tMs), w.inFlight]),
    showSymbol: false,
    lineStyle: { color: g.color, width: 2 },
    itemStyle: { color: g.color },
    markLine: i === 0 ? phaseMarkLine(groups, p) : undefined,
  }));
  // queued arrivals are drawn only where there were any (closed loops never queue)
  const queued: LineSeriesOption[] = groups
    .filter((g) => g.windows.some((w) => w.queued > 0))
    .map((g) => ({
      type: 'line',
      id: `${g.key}|queued`,
      name: one ? 'queued at the client' : g.name,
      step: 'end',
      data: g.windows.map((w) => [seconds(w.tMs), w.queued]),
      showSymbol: false,
      lineStyle: { color: g.color, width: 1.5, type: 'dashed' },
      itemStyle: { color: g.color },
    }));
  // a ramping-users phase's users as planned (the driver counts requests, not users): dotted
  const users: LineSeriesOption[] = groups
    .filter((g) => input.plannedUsers?.has(g.key) === true)
    .map((g) => ({
      type: 'line',
      id: `${g.key}|users`,
      name: one ? 'users (planned)' : g.name,
      data: (input.plannedUsers?.get(g.key) ?? []).map(([t, v]) => [t, v]),
      connectNulls: false,
      showSymbol: false,
      lineStyle: { color: g.color, width: 1.5, type: 'dotted' },
      itemStyle: { color: g.color },
    }));
  // the users the driver had active (started, not finished) at each window's end: thick, pale dash-dot, so it reads apart from the requests in flight it often runs along
  const active: LineSeriesOption[] = groups
    .filter((g) => input.activeUsers?.has(g.key) === true)
    .map((g) => ({
      type: 'line',
      id: `${g.key}|active-users`,
      name: one ? 'users (active)' : g.name,
      step: 'end',
      data: (input.activeUsers?.get(g.key) ?? []).map(([t, v]) => [t, v]),
      connectNulls: false,
      showSymbol: false,
      lineStyle: { color: g.color, width: 3, opacity: 0.55, type: [8, 3, 2, 3] },
      itemStyle: { color: g.color },
    }));
  return { ...baseOption(p), xAxis: timeAxis(p, input.maxSec), yAxis: { ...valueAxis(p, AXIS_NAMES.inFlight, { min: 0 }), minInterval: 1 }, series: [...inFlight, ...queued, ...users, ...active] };
}

/** The target's process tree: CPU % (100 = one core), or RSS (MB) with the process count on a second axis. */
export function serverOption(input: { groups: readonly SeriesGroup[]; metric: ServerMetric; maxSec?: number; servers?: number }, p: Palette): EChartsOption {
  const { groups, metric } = input;
  const one = !byServer(input);
  const series: LineSeriesOption[] = [];
  for (const g of groups) {
    if (metric === 'cpu') {
      series.push({
        type: 'line', name: one ? 'CPU' : g.name, showSymbol: false,
        data: g.samples.map((s) => [seconds(s.tMs), s.cpuPercent]),
        lineStyle: { color: g.color, width: 2 }, itemStyle: { color: g.color },
        areaStyle: one ? { color: g.color, opacity: 0.12 } : undefined,
      });
    } else {
      series.push({
        type: 'line', name: one ? 'RSS' : g.name, id: `${g.key}|rss`, showSymbol: false,
        data: g.samples.map((s) => [seconds(s.tMs), s.rssBytes / 1_048_576]),
        lineStyle: { color: g.color, width: 2 }, itemStyle: { color: g.color },
      });
      series.push({
        type: 'line', name: one ? 'processes' : g.name, id: `${g.key}|processes`, showSymbol: false, step: 'end', yAxisIndex: 1,
        data: g.samples.map((s) => [seconds(s.tMs), s.processes]),
        lineStyle: { color: g.color, width: 1.5, type: 'dashed' }, itemStyle: { color: g.color },
      });
    }
  }
  if (series[0] !== undefined) series[0].markLine = phaseMarkLine(groups, p);
  const base = baseOption(p);
  return {
    ...base,
    grid: { ...(base.grid as object), right: metric === 'memory' ? 56 : 24 },
    xAxis: timeAxis(p, input.maxSec),
    yAxis:
      metric === 'cpu'
        ? valueAxis(p, AXIS_NAMES.cpu, { min: 0 })
        : [valueAxis(p, AXIS_NAMES.rss, { min: 0 }), { ...valueAxis(p, AXIS_NAMES.processes, { min: 0, position: 'right' }), nameGap: 34, minInterval: 1 }],
    series,
  };
}

export interface MeanBar {
  /** the axis label: a server run's short name, its cell on a second line ("thread-pool\ncores 1 · 10 req") */
  label: string;
  /** the full name for hover ("thread-pool: servers[*].cores=1, phases[0].count=10"); the label when absent */
  title?: string;
  wait: number | null;
  processing: number | null;
  total: number | null;
}

/** Many or long server names: more than four bars, or a label line longer than 16 characters. */
export const meanBarsCrowded = (bars: readonly MeanBar[]): boolean => bars.length > 4 || bars.some((b) => b.label.split('\n').some((line) => line.length > 16));

/** The widest a slanted bar name is drawn (px), and a name beside a row of bars. */
const SLANT_WIDTH = 150;
const ROW_LABEL_WIDTH = 240;

/** One row of the bars laid across (MEAN_ROW_H px: a two-line name beside three bars), and the room above and below them. */
export const MEAN_ROW_H = 48;
export const meanRowsHeight = (bars: number): number => 44 + 44 + bars * MEAN_ROW_H;

type MeanMetric = keyof typeof METRIC_COLORS;

/**
 * One metric's bars (its mean to 3 significant figures, none where unknown), each value's label the
 * text every table shows (1,230 not 1230: a formatter string per bar, as the option holds no
 * functions); `look` is what columns and rows draw differently.
 */
function meanSeries(bars: readonly MeanBar[], key: MeanMetric, look: { borderRadius: number[]; barMaxWidth: number; barGap?: string; label: BarSeriesOption['label'] }): BarSeriesOption {
  const { borderRadius, label, ...bar } = look;
  return {
    type: 'bar',
    name: key,
    data: bars.map((b) => {
      if (b[key] === null) return null;
      const value = Number(b[key].toPrecision(3));
      return { value, label: { formatter: enUsNumber(value) } };
    }),
    itemStyle: { color: METRIC_COLORS[key], borderRadius },
    ...bar,
    label,
    labelLayout: { hideOverlap: true },
  };
}

/**
 * Mean wait, processing and total time per server, side by side (seed 000's figure). `rows` lays the
 * servers down the side, one row each with its name whole on its own lines (the screen, where a
 * chart grows with its rows: meanRowsHeight); the exports keep columns with slanted names.
 */
export function meanBarsOption(bars: readonly MeanBar[], p: Palette, layout: 'columns' | 'rows' = 'columns'): EChartsOption {
  if (layout === 'rows') return meanBarRows(bars, p);
  const base = baseOption(p);
  const style = axisStyle(p);
  // values over the bars only while there is room for them; a label that would cover another is hidden
  const metric = (key: MeanMetric): BarSeriesOption => meanSeries(bars, key, { borderRadius: [3, 3, 0, 0], barMaxWidth: 36, label: { show: bars.length <= 6, position: 'top', color: p.text, fontSize: 11 } });
  // Many or long server names: slanted on one line and fitted to SLANT_WIDTH by what tells them
  // apart (contract/name-fit.ts; the tooltip names them whole), so no two overprint or read alike.
  const crowded = meanBarsCrowded(bars);
  const axisLabel = crowded
    ? { ...style.axisLabel, fontSize: 11, color: p.text, interval: 0, rotate: 30, width: SLANT_WIDTH, overflow: 'truncate' as const, ellipsis: '...' }
    : { ...style.axisLabel, fontSize: 12, color: p.text, interval: 0 };
  const labels = crowded ? fitNames(bars.map((b) => b.label.replace(/\n/g, NAME_SEP)), { max: SLANT_WIDTH - 4, measure: estimatedIn(11) }) : bars.map((b) => b.label);
  return {
    ...base,
    tooltip: { ...(base.tooltip as object), axisPointer: { type: 'shadow' } },
    grid: { ...(base.grid as object), bottom: crowded ? 110 : 36, top: 44, left: crowded ? 110 : 64 },
    // slanted labels read on one line: a server's phase follows it after a dot, not on a line of its own
    xAxis: { type: 'category', data: labels, ...style, axisLabel },
    yAxis: valueAxis(p, AXIS_NAMES.meanTime, { min: 0 }),
    series: [metric('wait'), metric('processing'), metric('total')],
  };
}

/** The bars laid across: a row per server run, its name on the left on its own lines (cut only past 240 px). */
function meanBarRows(bars: readonly MeanBar[], p: Palette): EChartsOption {
  const base = baseOption(p);
  const style = axisStyle(p);
  const metric = (key: MeanMetric): BarSeriesOption => meanSeries(bars, key, { borderRadius: [0, 3, 3, 0], barMaxWidth: 12, barGap: '10%', label: { show: true, position: 'right', color: p.text, fontSize: 10 } });
  const value = valueAxis(p, AXIS_NAMES.meanTime, { min: 0 });
  // names fitted to ROW_LABEL_WIDTH on up to three lines (a row is MEAN_ROW_H tall), then the grid
  // keeps the labels' stated width for them (containLabel): the longest line's, estimated wide
  // (0.62 em a character), so a name is never cut short of it nor given room it does not use
  const labels = fitNames(bars.map((b) => b.label), { max: ROW_LABEL_WIDTH, lines: 3, measure: estimatedIn(12) });
  const longest = Math.max(1, ...labels.flatMap((l) => l.split('\n').map((line) => line.length)));
  const width = Math.min(ROW_LABEL_WIDTH, Math.ceil(longest * 12 * 0.62) + 4);
  return {
    ...base,
    tooltip: { ...(base.tooltip as object), axisPointer: { type: 'shadow' } },
    // a name is fitted, never cut by ECharts: the tooltip has it whole
    grid: { left: 12, right: 44, top: 44, bottom: 44, containLabel: true },
    yAxis: { type: 'category', inverse: true, data: labels, ...style, axisLabel: { ...style.axisLabel, fontSize: 12, lineHeight: 15, color: p.text, interval: 0, width, overflow: 'truncate', ellipsis: '...' } },
    xAxis: { ...value, nameGap: 28 },
    series: [metric('wait'), metric('processing'), metric('total')],
  };
}

export interface PercentileCurve {
  name: string;
  /** the name in full (a matrix cell as key=value), on hovering its legend entry; the name when absent */
  title?: string;
  color: string;
  /** [percentile 0..100, value in ms] */
  points: readonly (readonly [number, number])[];
}

/** x = 1 / (1 - q): 2 is the median, 10 p90, 100 p99, 1000 p99.9 (HdrHistogram's plot). */
export const percentileX = (percentile: number): number => 1 / (1 - Math.min(percentile, 99.9999) / 100);

/** Latency by percentile from the stored HDR histograms, log-scaled toward the tail. */
export function percentileOption(input: { curves: readonly PercentileCurve[]; log: boolean }, p: Palette): EChartsOption {
  const { curves, log } = input;
  const series: LineSeriesOption[] = curves.map((c) => ({
    type: 'line',
    name: c.name,
    data: c.points.map(([q, v]) => [percentileX(q), log ? Math.max(v, 0.01) : v]),
    showSymbol: false,
    step: 'end',
    lineStyle: { color: c.color, width: 2 },
    itemStyle: { color: c.color },
  }));
  // The axis ends at the decade past the deepest percentile the data reaches: 150 requests say
  // nothing about p99.99, and an axis drawn out to it leaves most of the chart empty.
  let deepest = 100;
  for (const c of curves) for (const [q] of c.points) deepest = Math.max(deepest, percentileX(q));
  const xMax = Math.min(1_000_000, 10 ** Math.ceil(Math.log10(deepest) - 1e-9));
  return {
    ...baseOption(p),
    xAxis: { type: 'log', name: AXIS_NAMES.percentile, nameLocation: 'middle', nameGap: 26, min: 1, max: xMax, ...axisStyle(p) },
    yAxis: valueAxis(p, AXIS_NAMES.percentileLatency(log), { log }),
    series,
  };
}

export { withTitle } from './export-layout.js';
