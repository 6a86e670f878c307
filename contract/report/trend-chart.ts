import type { EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts';
import type { Trend, TrendColumn, TrendFailure } from '../trends.js';
import { TREND_METRIC_LABELS, unfinishedStatus } from '../trends.js';
import { axisStyle, baseOption, valueAxis } from './chart-options.js';
import { colorAt, ERROR_COLOR, type Palette } from './palette.js';

// A scenario's trend as a chart (issue 27): one line per server, phase and endpoint across its last
// runs, a repeated group's column with its interval as a vertical bar, the pinned baseline as a band
// (a group's interval) or a dashed line (a single run) in the line's colour, named in the legend as
// "<line> · baseline"; a run that failed a threshold or its regression verdict marked by a red line;
// a run that did not complete (failed, interrupted: issue 36) by a red triangle with its status.

/** A column as the x axis names it: "#12", or "#13-15" for a group. */
export function trendColumnLabel(c: TrendColumn): string {
  return c.runIds.length > 1 ? `#${c.runIds[0]}-${c.runIds[c.runIds.length - 1]}` : `#${c.runIds[0]}`;
}

export function trendSeriesName(r: Trend['rows'][number]): string {
  return [r.server, r.phase, ...(r.endpoint === null ? [] : [r.endpoint])].join(' · ');
}

/** How a column's mark names what its runs failed. */
const FAILED_WORDS: Record<TrendFailure, string> = { thresholds: 'thresholds', regression: 'regression' };
/** The legend's name of the failed-run marks. */
export const FAILED_SERIES = 'failed: thresholds or regression';

/** The legend's name of the marks of runs that did not complete. */
export const UNFINISHED_SERIES = 'run did not complete (failed, interrupted)';
/** Its series id: the screen's tooltip names each marked run's status by it. */
export const UNFINISHED_ID = 'unfinished-runs';

/**
 * A red triangle at each column whose run did not complete, on its highest figure (on the axis when
 * it measured nothing: a server that refused), labelled with its status; null where none did.
 */
function unfinishedMarks(trend: Trend): ScatterSeriesOption | null {
  const statuses = trend.columns.map(unfinishedStatus);
  if (statuses.every((s) => s === null)) return null;
  const data = statuses.map((status, x) => {
    if (status === null) return null;
    const top = Math.max(0, ...trend.rows.map((r) => r.values[x]?.value ?? 0));
    return { value: top, label: { formatter: status } };
  });
  return {
    type: 'scatter',
    id: UNFINISHED_ID,
    name: UNFINISHED_SERIES,
    data,
    symbol: 'triangle',
    symbolSize: 15,
    // standing on its figure (on the axis: clear of the run's label below it), not centred on it
    symbolOffset: [0, -8],
    itemStyle: { color: ERROR_COLOR, borderColor: '#ffffff', borderWidth: 1 },
    label: { show: true, position: 'top', distance: 4, color: ERROR_COLOR, fontSize: 11, fontWeight: 'bold' },
    z: 5,
  };
}

export function trendOption(trend: Trend, p: Palette): EChartsOption {
  const lines: LineSeriesOption[] = trend.rows.map((r, i) => {
    const color = colorAt(i);
    const intervals = r.values.flatMap((v, x) =>
      v !== null && v.low !== null && v.high !== null ? [[{ coord: [x, v.low] }, { coord: [x, v.high] }] as [{ coord: [number, number] }, { coord: [number, number] }]] : [],
    );
    return {
      type: 'line',
      name: trendSeriesName(r),
      data: r.values.map((v) => (v === null ? null : v.value)),
      connectNulls: true,
      symbolSize: 7,
      lineStyle: { color, width: 2 },
      itemStyle: { color },
      markLine: { silent: true, symbol: ['none', 'none'], label: { show: false }, lineStyle: { color, width: 2, type: 'solid' }, data: intervals },
    };
  });
  // The pinned baseline: a series of its own per line (no points, so the tooltip skips it), so the
  // legend names each band, which overlap when lines lie close, and can hide one.
  const bands: LineSeriesOption[] = trend.rows.flatMap((r, i) => {
    const b = r.baseline;
    if (b === null) return [];
    const color = colorAt(i);
    const group = b.low !== null && b.high !== null;
    return [
      {
        type: 'line',
        name: `${trendSeriesName(r)} · baseline`,
        data: [],
        symbol: 'none',
        lineStyle: { color, type: 'dashed', width: 1 },
        // its legend swatch: a pale block of the line's colour (legend data below), never the line's own mark
        itemStyle: { color, opacity: 0.35 },
        ...(group
          ? { markArea: { silent: true, itemStyle: { color, opacity: 0.12 }, label: { show: false }, data: [[{ yAxis: b.low! }, { yAxis: b.high! }]] } }
          : { markLine: { silent: true, symbol: ['none', 'none'], label: { show: false }, lineStyle: { color, type: 'dashed' as const, width: 1 }, data: [{ yAxis: b.value }] } }),
      },
    ];
  });
  // A run that failed a threshold or its regression verdict: a red dashed line at its column, named on top.
  const failedAt = trend.columns.flatMap((c, x) => ((c.failed ?? []).length === 0 ? [] : [{ xAxis: x, label: { formatter: `✕ ${(c.failed ?? []).map((f) => FAILED_WORDS[f]).join(', ')}` } }]));
  const marks: LineSeriesOption[] =
    failedAt.length === 0
      ? []
      : [
          {
            type: 'line',
            name: FAILED_SERIES,
            data: [],
            symbol: 'none',
            lineStyle: { color: ERROR_COLOR, type: 'dashed', width: 1.5 },
            itemStyle: { color: ERROR_COLOR },
            markLine: { silent: true, symbol: ['none', 'none'], lineStyle: { color: ERROR_COLOR, type: 'dashed', width: 1.5 }, label: { show: true, position: 'end', color: ERROR_COLOR, fontSize: 11 }, data: failedAt },
          },
        ];
  const unfinished = unfinishedMarks(trend);
  // intervals and the band are marks, which do not widen the axis: it is sized to hold them
  let top = 0;
  for (const r of trend.rows) for (const v of [...r.values, r.baseline]) if (v !== null) top = Math.max(top, v.high ?? v.value, v.value);
  const base = baseOption(p);
  return {
    ...base,
    // room above the plot for the failed runs' labels, below the legend
    grid: { ...(base.grid as object), top: failedAt.length > 0 || unfinished !== null ? 72 : 52 },
    legend: {
      ...(base.legend as object),
      data: [
        ...lines.map((x) => ({ name: String(x.name) })),
        ...bands.map((x) => ({ name: String(x.name), icon: 'roundRect' })),
        ...marks.map((x) => ({ name: String(x.name) })),
        ...(unfinished === null ? [] : [{ name: UNFINISHED_SERIES, icon: 'triangle' }]),
      ],
    },
    xAxis: { type: 'category', name: 'run (oldest first)', nameLocation: 'middle', nameGap: 26, data: trend.columns.map(trendColumnLabel), ...axisStyle(p), splitLine: { show: false } },
    yAxis: { ...valueAxis(p, TREND_METRIC_LABELS[trend.metric], { min: 0 }), max: top > 0 ? niceCeil(top) : undefined },
    series: [...lines, ...bands, ...marks, ...(unfinished === null ? [] : [unfinished])],
  };
}

/** The next 1, 2 or 5 times a power of ten at or above v: a round axis end. */
export function niceCeil(v: number): number {
  const step = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * step).find((x) => x >= v * (1 - 1e-9))!;
}
