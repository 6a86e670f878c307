import { useMemo } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { EChart } from './EChart';
import { phaseMarkLine, seconds, type SeriesGroup } from './groups';
import { baseOption, timeAxis, valueAxis } from './theme';

/** Requests sent and not yet answered at the end of each window. */
export function InFlightChart({ groups, version, height = 240, maxSec }: { groups: readonly SeriesGroup[]; version?: number; height?: number; maxSec?: number }) {
  const option = useMemo<EChartsOption>(() => {
    const series: LineSeriesOption[] = groups.map((g, i) => ({
      type: 'line',
      name: groups.length === 1 ? 'in flight' : g.name,
      step: 'end',
      data: g.windows.map((w) => [seconds(w.tMs), w.inFlight]),
      showSymbol: false,
      lineStyle: { color: g.color, width: 2 },
      itemStyle: { color: g.color },
      markLine: i === 0 ? phaseMarkLine(groups) : undefined,
    }));
    const base = baseOption();
    return {
      ...base,
      tooltip: { ...base.tooltip, valueFormatter: (v) => `${String(v)} requests` },
      xAxis: timeAxis(maxSec),
      yAxis: { ...valueAxis('in flight (requests)', { min: 0 }), minInterval: 1 },
      series,
    };
  }, [groups, version, maxSec]);
  return <EChart option={option} height={height} ariaLabel="requests in flight over time" />;
}
