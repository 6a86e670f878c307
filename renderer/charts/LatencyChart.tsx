import { useMemo } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { EChart } from './EChart';
import { phaseMarkLine, pointsIn, seconds, type SeriesGroup } from './groups';
import { latencyTooltip } from './tooltip-html';
import { baseOption, timeAxis, valueAxis } from './theme';

export type LatencyMetric = 'total' | 'wait' | 'processing';
export type WindowPercentile = 'p50' | 'p90' | 'p99';
const PERCENTILES = [
  { key: 'p50', dash: 'solid', width: 2 },
  { key: 'p90', dash: 'dashed', width: 1.5 },
  { key: 'p99', dash: 'dotted', width: 1.5 },
] as const;

export interface LatencyChartProps {
  groups: readonly SeriesGroup[];
  metric: LatencyMetric;
  log: boolean;
  version?: number;
  height?: number;
  testId?: string;
  /** which percentile lines to draw (all three when absent); one is easier to read across many runs */
  percentiles?: readonly WindowPercentile[];
  /** the shared end of the time axis (s); the chart's own data when absent */
  maxSec?: number;
}

/** p50 / p90 / p99 of one latency metric per 250 ms window, one colour per server run. */
export function LatencyChart({ groups, metric, log, version, height = 300, testId, maxSec, percentiles }: LatencyChartProps) {
  const option = useMemo<EChartsOption>(() => {
    const series: LineSeriesOption[] = [];
    for (const g of groups) {
      for (const p of PERCENTILES) {
        if (percentiles !== undefined && !percentiles.includes(p.key)) continue;
        const data: [number, number][] = [];
        for (const w of g.windows) {
          const stats = w[metric];
          if (stats === null) continue;
          const v = stats[p.key];
          data.push([seconds(w.tMs), log ? Math.max(v, 0.01) : v]);
        }
        series.push({
          type: 'line',
          // Several servers: one legend entry per server (toggling its three lines); the dash tells
          // the percentile apart and the tooltip names it from the series id.
          id: `${g.key}|${p.key}`,
          name: groups.length === 1 ? p.key : g.name,
          data,
          showSymbol: false,
          sampling: 'lttb',
          // a single percentile is drawn solid whichever it is
          lineStyle: { color: g.color, type: percentiles?.length === 1 ? 'solid' : p.dash, width: percentiles?.length === 1 ? 2 : p.width },
          itemStyle: { color: g.color },
          markLine: series.length === 0 ? phaseMarkLine(groups) : undefined,
        });
      }
    }
    const base = baseOption();
    return {
      ...base,
      tooltip: {
        ...base.tooltip,
        formatter: (params) => latencyTooltip(Array.isArray(params) ? params : [params], groups.length === 1),
      },
      xAxis: timeAxis(maxSec),
      yAxis: valueAxis(`${metric} time (ms)${log ? ', log' : ''}`, { log }),
      series,
    };
    // version: the windows arrays are mutated in place by the live store
  }, [groups, metric, log, version, maxSec, percentiles]);
  return <EChart option={option} height={height} testId={testId} points={pointsIn(groups)} ariaLabel={`${metric} time percentiles over time`} />;
}
