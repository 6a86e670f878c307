import { useMemo } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { EChart } from './EChart';
import { phaseMarkLine, seconds, type SeriesGroup } from './groups';
import { baseOption, sig3, timeAxis, valueAxis } from './theme';

export type ServerMetric = 'cpu' | 'memory';

/**
 * The target's process tree as the supervisor samples it: CPU % (100 = one core), or RSS (MB) with
 * the process count on a second axis, where seed 000's auto-scaling pool shows as steps.
 */
export function ServerChart({ groups, metric, version, height = 240, maxSec }: { groups: readonly SeriesGroup[]; metric: ServerMetric; version?: number; height?: number; maxSec?: number }) {
  const option = useMemo<EChartsOption>(() => {
    const one = groups.length === 1;
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
          tooltip: { valueFormatter: (v) => `${sig3(v)} MB` },
        });
        series.push({
          type: 'line', name: one ? 'processes' : g.name, id: `${g.key}|processes`, showSymbol: false, step: 'end', yAxisIndex: 1,
          data: g.samples.map((s) => [seconds(s.tMs), s.processes]),
          lineStyle: { color: g.color, width: 1.5, type: 'dashed' }, itemStyle: { color: g.color },
          tooltip: { valueFormatter: (v) => `${String(v)} processes` },
        });
      }
    }
    if (series[0] !== undefined) series[0].markLine = phaseMarkLine(groups);
    const base = baseOption();
    return {
      ...base,
      tooltip: metric === 'cpu' ? { ...base.tooltip, valueFormatter: (v) => `${sig3(v)} %` } : base.tooltip,
      grid: { ...base.grid, right: metric === 'memory' ? 56 : 24 },
      xAxis: timeAxis(maxSec),
      yAxis:
        metric === 'cpu'
          ? valueAxis('server CPU (%, 100 = 1 core)', { min: 0 })
          : [valueAxis('server RSS (MB)', { min: 0 }), { ...valueAxis('processes', { min: 0, position: 'right' }), nameGap: 34, minInterval: 1, max: (e: { max: number }) => Math.max(2, Math.ceil(e.max * 1.25)) }],
      series,
    };
  }, [groups, metric, version, maxSec]);
  return <EChart option={option} height={height} ariaLabel={metric === 'cpu' ? 'server CPU over time' : 'server memory and processes over time'} />;
}
