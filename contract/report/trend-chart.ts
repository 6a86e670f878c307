import type { EChartsOption, LineSeriesOption } from 'echarts';
import type { Trend, TrendColumn } from '../trends.js';
import { TREND_METRIC_LABELS } from '../trends.js';
import { axisStyle, baseOption, valueAxis } from './chart-options.js';
import { colorAt, type Palette } from './palette.js';

// A scenario's trend as a chart (issue 27): one line per server, phase and endpoint across its last
// runs, a repeated group's column with its interval as a vertical bar, the pinned baseline as a band
// (a group's interval) or a dashed line (a single run) in the line's colour.

/** A column as the x axis names it: "#12", or "#13-15" for a group. */
export function trendColumnLabel(c: TrendColumn): string {
  return c.runIds.length > 1 ? `#${c.runIds[0]}-${c.runIds[c.runIds.length - 1]}` : `#${c.runIds[0]}`;
}

export function trendSeriesName(r: Trend['rows'][number]): string {
  return [r.server, r.phase, ...(r.endpoint === null ? [] : [r.endpoint])].join(' · ');
}

export function trendOption(trend: Trend, p: Palette): EChartsOption {
  const series: LineSeriesOption[] = trend.rows.map((r, i) => {
    const color = colorAt(i);
    const intervals = r.values.flatMap((v, x) =>
      v !== null && v.low !== null && v.high !== null ? [[{ coord: [x, v.low] }, { coord: [x, v.high] }] as [{ coord: [number, number] }, { coord: [number, number] }]] : [],
    );
    const b = r.baseline;
    return {
      type: 'line',
      name: trendSeriesName(r),
      data: r.values.map((v) => (v === null ? null : v.value)),
      connectNulls: true,
      symbolSize: 7,
      lineStyle: { color, width: 2 },
      itemStyle: { color },
      markLine: {
        silent: true,
        symbol: ['none', 'none'],
        label: { show: false },
        lineStyle: { color, width: 2, type: 'solid' },
        data: [...intervals, ...(b !== null && (b.low === null || b.high === null) ? [{ yAxis: b.value, lineStyle: { color, type: 'dashed' as const, width: 1 } }] : [])],
      },
      ...(b !== null && b.low !== null && b.high !== null
        ? { markArea: { silent: true, itemStyle: { color, opacity: 0.12 }, label: { show: false }, data: [[{ yAxis: b.low }, { yAxis: b.high }]] } }
        : {}),
    };
  });
  // intervals and the band are marks, which do not widen the axis: it is sized to hold them
  let top = 0;
  for (const r of trend.rows) for (const v of [...r.values, r.baseline]) if (v !== null) top = Math.max(top, v.high ?? v.value, v.value);
  return {
    ...baseOption(p),
    xAxis: { type: 'category', name: 'run (oldest first)', nameLocation: 'middle', nameGap: 26, data: trend.columns.map(trendColumnLabel), ...axisStyle(p), splitLine: { show: false } },
    yAxis: { ...valueAxis(p, TREND_METRIC_LABELS[trend.metric], { min: 0 }), max: top > 0 ? niceCeil(top) : undefined },
    series,
  };
}

/** The next 1, 2 or 5 times a power of ten at or above v: a round axis end. */
export function niceCeil(v: number): number {
  const step = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * step).find((x) => x >= v * (1 - 1e-9))!;
}
