import type { EChartsOption } from 'echarts';
import type { Trend } from '../trends.js';
import { fitNames } from '../name-fit.js';
import { estimatedIn, EXPORT_CHART_WIDTH, withTitle } from './export-layout.js';
import { latencyHeatmap, latencyHeatmapOption } from './latency-heatmap.js';
import type { Palette } from './palette.js';
import { rtThroughputOption } from './rt-throughput.js';
import type { SeriesGroup } from './series.js';
import { trendOption } from './trend-chart.js';
import { enUsNumber } from '../number-text.js';

// The report's charts for reading latency (issue 27), titled as the HTML report and the PNG draw
// them: a heatmap per server run (the first is `heatmap`, which the PNG shows), response time vs
// throughput, and the scenario's trend when one was read for the report.

export interface TitledChart {
  id: string;
  title: string;
  option: EChartsOption;
}

/** A heatmap's title: its server run's name fitted beside "Latency heatmap: " in the exported chart's box (bold 15 px), told apart from the others'. */
const HEAT_TITLE = 'Latency heatmap: ';
const TITLE_FONT = estimatedIn(16.5);

export function readingCharts(groups: readonly SeriesGroup[], p: Palette, trend: Trend | null = null): TitledChart[] {
  const charts: TitledChart[] = [];
  const names = fitNames(groups.map((g) => g.name), { max: EXPORT_CHART_WIDTH - 40 - TITLE_FONT(HEAT_TITLE), measure: TITLE_FONT });
  groups.forEach((g, i) => {
    const h = latencyHeatmap(g.windows);
    if (h.requests === 0) return;
    const title = groups.length > 1 ? `${HEAT_TITLE}${names[i]}` : 'Latency heatmap';
    charts.push({ id: i === 0 ? 'heatmap' : `heatmap-${i}`, title, option: withTitle(latencyHeatmapOption(h, p), title, p, `${enUsNumber(h.requests)} requests; colour: requests per cell`) });
  });
  if (groups.some((g) => g.windows.some((w) => w.total !== null && w.count > 0))) {
    const title = 'Response time (total p99) vs throughput';
    charts.push({ id: 'rt-throughput', title, option: withTitle(rtThroughputOption({ groups, percentile: 'p99', log: false }, p), title, p, 'one point per 250 ms window') });
  }
  if (trend !== null && trend.columns.length > 0) {
    const title = `Trend of ${trend.scenarioName}: ${trend.metric}, last ${trend.columns.length} ${trend.profile ?? ''} runs`;
    const ids = trend.baselineRunIds;
    const baseline = ids === null ? 'no baseline pinned' : `band: baseline #${ids.length > 1 ? `${ids[0]}-${ids[ids.length - 1]}` : ids[0]}`;
    charts.push({ id: 'trend', title, option: withTitle(trendOption(trend, p), title, p, `${baseline} · a group: mean and interval`) });
  }
  return charts;
}
