import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { rtThroughputOption, type RtPercentile } from '../../contract/report/rt-throughput';
import { EChart } from './EChart';
import { fullNamesOf, type SeriesGroup } from './groups';
import { sig3 } from './theme';
import { escapeHtml } from '../../contract/html-text';
import { withTooltipFormatter } from './tooltip-html';

const TITLE = 'Response time vs throughput';

/** One point per window: its throughput and its total-time percentile (Gatling's chart; the report's option). */
export function RtThroughputChart({ groups, percentile, log, version, height = 260, testId }: { groups: readonly SeriesGroup[]; percentile: RtPercentile; log: boolean; version?: number; height?: number; testId?: string }) {
  const input = useMemo(() => ({ groups, percentile, log }), [groups, percentile, log, version]);
  const option = useMemo<EChartsOption>(
    () =>
      withTooltipFormatter(rtThroughputOption(input, DARK), (p) => {
        const { data, seriesName } = p as { data: [number, number]; seriesName: string };
        return `${escapeHtml(seriesName)}<br>${sig3(data[0])} req/s · ${percentile} ${sig3(data[1])} ms`;
      }),
    [input],
  );
  const points = groups.reduce((n, g) => n + g.windows.filter((w) => w.total !== null && w.count > 0).length, 0);
  return <EChart option={option} height={height} testId={testId} points={points} fullNames={fullNamesOf(groups)} ariaLabel="response time against throughput, one point per window" png={{ title: TITLE, option: () => withTitle(rtThroughputOption(input, LIGHT), TITLE, LIGHT) }} />;
}
