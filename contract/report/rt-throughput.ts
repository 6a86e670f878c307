import type { EChartsOption, ScatterSeriesOption } from 'echarts';
import { AXIS_NAMES, baseOption, valueAxis } from './chart-options.js';
import type { Palette } from './palette.js';
import type { SeriesGroup } from './series.js';

// Response time against throughput (Gatling's chart; issue 27): one point per stored window, x its
// completions per second, y its total-time percentile, one series per server run. Where latency
// climbs while throughput stops growing is the server's knee. From windows only, like the heatmap.

export type RtPercentile = 'p50' | 'p99';

export const RT_AXIS_NAMES = {
  latency: (q: RtPercentile, log: boolean) => `total ${q} per window (ms)${log ? ', log' : ''}`,
} as const;

/** [throughput req/s, percentile ms] per window with requests measured. */
export function rtThroughputPoints(group: Pick<SeriesGroup, 'windows'>, q: RtPercentile): [number, number][] {
  const out: [number, number][] = [];
  for (const w of group.windows) if (w.total !== null && w.count > 0) out.push([w.throughput, Math.min(w.total[q], w.total.max)]);
  return out;
}

export function rtThroughputOption(input: { groups: readonly SeriesGroup[]; percentile: RtPercentile; log: boolean }, p: Palette): EChartsOption {
  const { groups, percentile, log } = input;
  const series: ScatterSeriesOption[] = groups.map((g) => ({
    type: 'scatter',
    name: g.name,
    data: rtThroughputPoints(g, percentile).map(([x, y]) => [x, log ? Math.max(y, 0.01) : y]),
    symbolSize: 5,
    large: true,
    itemStyle: { color: g.color, opacity: 0.7 },
  }));
  return {
    ...baseOption(p),
    tooltip: { ...baseOption(p).tooltip, trigger: 'item' },
    xAxis: { ...valueAxis(p, AXIS_NAMES.throughput, { min: 0 }), nameGap: 26 },
    yAxis: valueAxis(p, RT_AXIS_NAMES.latency(percentile, log), { log }),
    series,
  };
}
