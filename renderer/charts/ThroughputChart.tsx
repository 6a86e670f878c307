import { useMemo } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { EChart } from './EChart';
import { errorsPerSecond, phaseMarkLine, seconds, type SeriesGroup } from './groups';
import { baseOption, ERROR_COLOR, sig3, timeAxis, valueAxis } from './theme';

/** Completed requests per second and errors per second, per 250 ms window. */
export function ThroughputChart({ groups, version, height = 240, testId, maxSec }: { groups: readonly SeriesGroup[]; version?: number; height?: number; testId?: string; maxSec?: number }) {
  const option = useMemo<EChartsOption>(() => {
    const series: LineSeriesOption[] = [];
    let anyErrors = false;
    for (const g of groups) {
      series.push({
        type: 'line',
        name: groups.length === 1 ? 'throughput' : g.name,
        data: g.windows.map((w) => [seconds(w.tMs), w.throughput]),
        showSymbol: false,
        sampling: 'lttb',
        lineStyle: { color: g.color, width: 2 },
        itemStyle: { color: g.color },
        areaStyle: groups.length === 1 ? { color: g.color, opacity: 0.12 } : undefined,
        markLine: series.length === 0 ? phaseMarkLine(groups) : undefined,
      });
      const errors = errorsPerSecond(g.windows);
      if (errors.some(([, e]) => e > 0)) {
        anyErrors = true;
        series.push({
          type: 'line',
          id: `${g.key}|errors`,
          name: 'errors',
          data: errors,
          showSymbol: false,
          lineStyle: { color: ERROR_COLOR, width: 1.5, type: 'dashed' },
          itemStyle: { color: ERROR_COLOR },
        });
      }
    }
    const base = baseOption();
    return {
      ...base,
      tooltip: { ...base.tooltip, valueFormatter: (v) => `${sig3(v)} req/s` },
      xAxis: timeAxis(maxSec),
      yAxis: valueAxis(anyErrors ? 'requests, errors (req/s)' : 'throughput (req/s)', { min: 0 }),
      series,
    };
    // version: the windows arrays are mutated in place by the live store
  }, [groups, version, maxSec]);
  return <EChart option={option} height={height} testId={testId} ariaLabel="throughput and errors over time" />;
}
