import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { latencyOption, withTitle, type LatencyMetric, type WindowPercentile } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { pointsIn, type SeriesGroup } from './groups';
import { baseOption, sig3 } from './theme';

export type { LatencyMetric, WindowPercentile } from '../../contract/report/chart-options';

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

/** p50 / p90 / p99 of one latency metric per 250 ms window, one colour per server run (the report's option). */
export function LatencyChart({ groups, metric, log, version, height = 300, testId, maxSec, percentiles }: LatencyChartProps) {
  const input = useMemo(() => ({ groups, metric, log, maxSec, percentiles }), [groups, metric, log, version, maxSec, percentiles]);
  const option = useMemo<EChartsOption>(() => {
    const base = baseOption();
    return {
      ...latencyOption(input, DARK),
      tooltip: {
        ...base.tooltip,
        formatter: (params) => {
          const list = Array.isArray(params) ? params : [params];
          const head = list[0] !== undefined && Array.isArray(list[0].value) ? `${sig3(list[0].value[0])} s` : '';
          const rows = list.map((x) => {
            const pct = String(x.seriesId ?? '').split('|')[1] ?? '';
            const label = groups.length === 1 ? pct : `${x.seriesName ?? ''} ${pct}`;
            return `${x.marker ?? ''} ${label}: <b>${Array.isArray(x.value) ? sig3(x.value[1]) : ''} ms</b>`;
          });
          return [head, ...rows].join('<br/>');
        },
      },
    };
  }, [input]);
  const png = { title: `${metric} time per 250 ms window`, option: () => withTitle(latencyOption(input, LIGHT), `${metric} time per 250 ms window`, LIGHT) };
  return <EChart option={option} height={height} testId={testId} points={pointsIn(groups)} ariaLabel={`${metric} time percentiles over time`} png={png} />;
}
