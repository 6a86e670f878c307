import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { latencyOption, withTitle, type LatencyMetric, type WindowPercentile } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { withEvidenceArea, type EvidenceArea } from './evidence-area';
import { drawnDataOf, fullNamesOf, pointsIn, type SeriesGroup } from './groups';
import { baseOption } from './theme';
import { latencyTooltip } from './tooltip-html';
import { withTimeZoom } from './zoom';

export type { LatencyMetric, WindowPercentile } from '../../contract/report/chart-options';

export interface LatencyChartProps {
  groups: readonly SeriesGroup[];
  metric: LatencyMetric;
  log: boolean;
  /** moves when the data changed (the arrays are appended in place) */
  version?: number | string;
  height?: number;
  testId?: string;
  /** which percentile lines to draw (all three when absent); one is easier to read across many runs */
  percentiles?: readonly WindowPercentile[];
  /** the shared end of the time axis (s); the chart's own data when absent */
  maxSec?: number;
  /** how many server runs it will show (live: before they start), so the legend keeps one meaning */
  servers?: number;
  /** a finding's evidence range, shaded and named */
  area?: EvidenceArea | null;
  /** expose the text drawn as data-texts (the shade's label among it) */
  drawnText?: boolean;
}

/** p50 / p90 / p99 of one latency metric per 250 ms window, one colour per server run (the report's option). */
export function LatencyChart({ groups, metric, log, version, height = 300, testId, maxSec, percentiles, servers, area, drawnText }: LatencyChartProps) {
  const input = useMemo(() => ({ groups, metric, log, maxSec, percentiles, servers }), [groups, metric, log, version, maxSec, percentiles, servers]);
  const option = useMemo<EChartsOption>(() => {
    const base = baseOption();
    return withTimeZoom({
      ...withEvidenceArea(latencyOption(input, DARK), area),
      tooltip: {
        ...base.tooltip,
        formatter: (params) => latencyTooltip(Array.isArray(params) ? params : [params], Math.max(groups.length, servers ?? 0) === 1),
      },
    });
  }, [input, area]);
  const dataKey = useMemo(() => drawnDataOf(input.groups, 'windows', input.maxSec), [input]);
  const png = { title: `${metric} time per 250 ms window`, option: () => withTitle(latencyOption(input, LIGHT), `${metric} time per 250 ms window`, LIGHT) };
  return <EChart option={option} dataKey={dataKey} height={height} testId={testId} fullNames={fullNamesOf(groups)} points={pointsIn(groups)} ariaLabel={`${metric} time percentiles over time`} png={png} drawnText={drawnText} />;
}
