import { useMemo } from 'react';
import type { EChartsOption, ScatterSeriesOption } from 'echarts';
import type { RequestPoint } from '../../contract/results';
import { EChart } from './EChart';
import { seconds } from './groups';
import { baseOption, ERROR_COLOR, sig3, timeAxis, valueAxis } from './theme';

export interface ScatterSet {
  name: string;
  /** the name in full (a matrix cell as key=value), on hovering its legend entry */
  title?: string;
  color: string;
  points: readonly RequestPoint[];
}

/** Every (sampled) request: when it was meant to be sent against its total time (seed 004's plots). */
export function ScatterChart({ sets, log, height = 300, testId, timeName = 'intended send time, since server start (s)' }: { sets: readonly ScatterSet[]; log: boolean; height?: number; testId?: string; /** the x axis's name (a k6 run's times count from when it sent) */ timeName?: string }) {
  const option = useMemo<EChartsOption>(() => {
    const series: ScatterSeriesOption[] = [];
    const errors: [number, number][] = [];
    for (const s of sets) {
      const data: [number, number][] = [];
      for (const p of s.points) {
        const y = log ? Math.max(p.totalMs, 0.01) : p.totalMs;
        if (p.error !== null) errors.push([seconds(p.intendedMs), y]);
        else data.push([seconds(p.intendedMs), y]);
      }
      series.push({ type: 'scatter', name: s.name, data, symbolSize: 3, large: true, largeThreshold: 2000, itemStyle: { color: s.color, opacity: 0.55 } });
    }
    if (errors.length > 0) {
      series.push({ type: 'scatter', name: 'errors', data: errors, symbolSize: 4, large: true, itemStyle: { color: ERROR_COLOR, opacity: 0.8 } });
    }
    const base = baseOption();
    return {
      ...base,
      tooltip: { trigger: 'item', backgroundColor: '#1b212c', borderColor: '#333c4d', textStyle: { color: '#e3e7ee' },
        formatter: (p) => {
          const v = Array.isArray(p) ? undefined : p.value;
          return Array.isArray(v) ? `${sig3(v[0])} s: ${sig3(v[1])} ms` : '';
        } },
      xAxis: { ...timeAxis(), name: timeName },
      yAxis: valueAxis(`total time (ms)${log ? ', log' : ''}`, { log }),
      series,
    };
  }, [sets, log, timeName]);
  const n = sets.reduce((a, s) => a + s.points.length, 0);
  const fullNames = new Map(sets.map((s) => [s.name, s.title ?? s.name]));
  return <EChart option={option} height={height} testId={testId} points={n} fullNames={fullNames} ariaLabel={`per-request total time against ${timeName}`} />;
}
