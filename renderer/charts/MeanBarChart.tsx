import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { EChart } from './EChart';
import { baseOption, METRIC_COLORS, sig3, valueAxis, axisStyle } from './theme';

export interface MeanBar {
  label: string;
  wait: number | null;
  processing: number | null;
  total: number | null;
}

/** Mean wait, processing and total time per server, side by side (seed 000's figure). */
export function MeanBarChart({ bars, height = 280, testId }: { bars: readonly MeanBar[]; height?: number; testId?: string }) {
  const option = useMemo<EChartsOption>(() => {
    const base = baseOption();
    const metric = (key: keyof typeof METRIC_COLORS, name: string) => ({
      type: 'bar' as const,
      name,
      data: bars.map((b) => b[key]),
      itemStyle: { color: METRIC_COLORS[key], borderRadius: [3, 3, 0, 0] },
      barMaxWidth: 36,
      label: { show: bars.length <= 6, position: 'top' as const, color: '#c9d1dc', fontSize: 11, formatter: (p: { value: unknown }) => sig3(p.value) },
    });
    return {
      ...base,
      tooltip: { ...base.tooltip, axisPointer: { type: 'shadow' }, valueFormatter: (v) => `${sig3(v)} ms` },
      grid: { ...base.grid, bottom: 36, top: 44 },
      xAxis: { type: 'category', data: bars.map((b) => b.label), ...axisStyle, axisLabel: { ...axisStyle.axisLabel, fontSize: 12, color: '#c9d1dc' } },
      yAxis: valueAxis('mean time (ms)', { min: 0 }),
      series: [metric('wait', 'wait'), metric('processing', 'processing'), metric('total', 'total')],
    };
  }, [bars]);
  return <EChart option={option} height={height} testId={testId} points={bars.length} ariaLabel="mean wait, processing and total per server" />;
}
