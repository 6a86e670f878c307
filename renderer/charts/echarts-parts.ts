import * as echarts from 'echarts/core';
import { BarChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  MarkPointComponent,
  TitleComponent,
  TooltipComponent,
  VisualMapContinuousComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsOption } from 'echarts';

// The parts of ECharts the workbench registers (tree-shaken: a few hundred KB less than the whole).
// An option that uses an unregistered part draws without it and says nothing in a production build
// (the capacity curves' knee pins were invisible that way), so every part an option can use is
// named here and `unregisteredParts` lets tests check the options the views draw.

const PARTS = {
  line: LineChart,
  bar: BarChart,
  scatter: ScatterChart,
  heatmap: HeatmapChart,
  grid: GridComponent,
  legend: LegendComponent,
  tooltip: TooltipComponent,
  title: TitleComponent,
  dataZoom: DataZoomComponent,
  markLine: MarkLineComponent,
  markArea: MarkAreaComponent,
  markPoint: MarkPointComponent,
  visualMap: VisualMapContinuousComponent,
} as const;

echarts.use([...Object.values(PARTS), CanvasRenderer]);

const TOP_LEVEL = ['legend', 'tooltip', 'title', 'dataZoom', 'visualMap'] as const;
const MARKS = ['markPoint', 'markLine', 'markArea'] as const;

/** The parts an option uses that are not registered (series types, marks, top-level components): [] when it draws whole. */
export function unregisteredParts(option: EChartsOption): string[] {
  const used = new Set<string>();
  for (const key of TOP_LEVEL) if (option[key] !== undefined) used.add(key);
  const series = Array.isArray(option.series) ? option.series : option.series === undefined ? [] : [option.series];
  for (const s of series) {
    if (typeof s.type === 'string') used.add(s.type);
    for (const mark of MARKS) if ((s as Record<string, unknown>)[mark] !== undefined) used.add(mark);
  }
  return [...used].filter((part) => !(part in PARTS));
}

/** ECharts with the parts above registered: the one the workbench draws with. */
export { echarts };
