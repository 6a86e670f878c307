import { useMemo } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { EChart } from './EChart';
import { percentileTooltip } from './tooltip-html';
import { axisStyle, baseOption, valueAxis } from './theme';

export interface PercentileCurve {
  name: string;
  color: string;
  /** [percentile 0..100, value in ms] */
  points: readonly (readonly [number, number])[];
}

/** x = 1 / (1 - q): 2 is the median, 10 p90, 100 p99, 1000 p99.9 (HdrHistogram's plot). */
const toX = (percentile: number): number => 1 / (1 - Math.min(percentile, 99.9999) / 100);

function percentLabel(x: number): string {
  const q = 100 * (1 - 1 / x);
  if (q <= 0) return '0%';
  return `${Number(q.toPrecision(6))}%`;
}

/** Latency by percentile from the stored HDR histograms, log-scaled toward the tail. */
export function PercentileCurveChart({ curves, log, height = 320, testId }: { curves: readonly PercentileCurve[]; log: boolean; height?: number; testId?: string }) {
  const option = useMemo<EChartsOption>(() => {
    const series: LineSeriesOption[] = curves.map((c) => ({
      type: 'line',
      name: c.name,
      data: c.points.map(([q, v]) => [toX(q), log ? Math.max(v, 0.01) : v]),
      showSymbol: false,
      step: 'end',
      lineStyle: { color: c.color, width: 2 },
      itemStyle: { color: c.color },
    }));
    // The axis ends at the decade past the deepest percentile the data reaches: 150 requests say
    // nothing about p99.99, and an axis drawn out to it leaves most of the chart empty.
    let deepest = 100;
    for (const c of curves) for (const [q] of c.points) deepest = Math.max(deepest, toX(q));
    const xMax = Math.min(1_000_000, 10 ** Math.ceil(Math.log10(deepest) - 1e-9));
    const base = baseOption();
    return {
      ...base,
      tooltip: {
        ...base.tooltip,
        formatter: (params) => percentileTooltip(Array.isArray(params) ? params : [params], percentLabel),
      },
      xAxis: {
        type: 'log',
        name: 'percentile (log scale toward the tail)',
        nameLocation: 'middle',
        nameGap: 26,
        min: 1,
        max: xMax,
        ...axisStyle,
        axisLabel: { ...axisStyle.axisLabel, formatter: (v: number) => percentLabel(v) },
      },
      yAxis: valueAxis(`latency (ms)${log ? ', log' : ''}`, { log }),
      series,
    };
  }, [curves, log]);
  return <EChart option={option} height={height} testId={testId} points={curves.length} ariaLabel="latency by percentile" />;
}
