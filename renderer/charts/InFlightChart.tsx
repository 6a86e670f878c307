import { useMemo } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { EChart } from './EChart';
import { phaseMarkLine, seconds, type SeriesGroup } from './groups';
import { baseOption, timeAxis, valueAxis } from './theme';

/** Requests sent and not yet answered at the end of each window; dashed: open-loop arrivals queued at the client (no free slot yet). */
export function InFlightChart({ groups, version, height = 240, maxSec }: { groups: readonly SeriesGroup[]; version?: number; height?: number; maxSec?: number }) {
  const option = useMemo<EChartsOption>(() => {
    const inFlight: LineSeriesOption[] = groups.map((g, i) => ({
      type: 'line',
      name: groups.length === 1 ? 'in flight' : g.name,
      step: 'end',
      data: g.windows.map((w) => [seconds(w.tMs), w.inFlight]),
      showSymbol: false,
      lineStyle: { color: g.color, width: 2 },
      itemStyle: { color: g.color },
      markLine: i === 0 ? phaseMarkLine(groups) : undefined,
    }));
    // queued arrivals are drawn only where there were any (closed loops never queue)
    const queued: LineSeriesOption[] = groups
      .filter((g) => g.windows.some((w) => w.queued > 0))
      .map((g) => ({
        type: 'line',
        id: `${g.key}|queued`,
        name: groups.length === 1 ? 'queued at the client' : g.name,
        step: 'end',
        data: g.windows.map((w) => [seconds(w.tMs), w.queued]),
        showSymbol: false,
        lineStyle: { color: g.color, width: 1.5, type: 'dashed' },
        itemStyle: { color: g.color },
      }));
    const series = [...inFlight, ...queued];
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
