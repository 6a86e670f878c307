import type { DataZoomComponentOption, EChartsOption } from 'echarts';
import { DARK } from '../../contract/report/palette';
import type { echarts } from './echarts-parts';

// Zoom on the time charts (the workbench's, not the reports' PNGs): the wheel or a drag inside the plot,
// and a slider under it. Windows are never filtered out, so lines keep their shape at the edges.

const SLIDER_HEIGHT = 16;

/** The option with zoom on its time axis, and room under the plot for the slider. */
export function withTimeZoom(option: EChartsOption): EChartsOption {
  const grid = (option.grid ?? {}) as Record<string, unknown>;
  const zoom: DataZoomComponentOption[] = [
    { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
    {
      type: 'slider',
      xAxisIndex: 0,
      filterMode: 'none',
      height: SLIDER_HEIGHT,
      bottom: 6,
      // from the plot's left edge; short of the right corner, where the chart's PNG button sits
      left: 64,
      right: 72,
      borderColor: DARK.line,
      fillerColor: 'rgba(76, 141, 255, 0.18)',
      textStyle: { color: DARK.muted, fontSize: 10 },
      dataBackground: { lineStyle: { color: DARK.muted, opacity: 0.5 }, areaStyle: { opacity: 0 } },
      labelFormatter: (value: number) => `${Math.round(value * 10) / 10} s`,
    },
  ];
  return { ...option, grid: { ...grid, bottom: 44 + SLIDER_HEIGHT + 14 }, dataZoom: zoom };
}

/** The model ECharts keeps (typed loosely, as contract/report/drawn-legend.ts reads it: not in its types). */
interface Modelled {
  getModel(): { getComponent(type: string, index?: number): { option?: { start?: unknown; end?: unknown } } | null | undefined } | null | undefined;
}

/** The zoom a person set (start and end, %), to carry over a redraw that replaces the whole option. */
export function currentZoom(instance: echarts.ECharts): { start: number; end: number } | null {
  // read from the first dataZoom's model, as getOption() would give it, without getOption's deep copy
  // of the whole option and its data (twice a draw: a live chart paid it 4 times a second); before
  // the first setOption there is no model at all
  const zoom = (instance as unknown as Modelled).getModel()?.getComponent('dataZoom', 0)?.option;
  return typeof zoom?.start !== 'number' || typeof zoom.end !== 'number' ? null : { start: zoom.start, end: zoom.end };
}

/** The option with the zoom kept (live charts replace their option every window). */
export function keepZoom(option: EChartsOption, zoom: { start: number; end: number } | null): EChartsOption {
  if (zoom === null || !Array.isArray(option.dataZoom)) return option;
  return { ...option, dataZoom: option.dataZoom.map((z) => ({ ...z, ...zoom })) };
}
