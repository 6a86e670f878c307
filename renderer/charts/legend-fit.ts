import type { EChartsOption } from 'echarts';
import { laidOutLegend, legendExtra, legendLayout, type LegendLayout } from '../../contract/report/export-layout';
import { FONT_FAMILY } from '../../contract/report/palette';

// A legend on screen wraps onto as many rows as its entries need and the plot moves down by them,
// instead of ECharts' scroll legend, which pages eight server runs as "1/8" with arrows. Entries are
// fitted and laid out as the exports lay them (contract/report/export-layout.ts, names by
// contract/name-fit.ts), measured in the chart's font (a canvas), so the rows counted are the rows
// ECharts draws; the legend's tooltip names every entry in full.

const FONT = 12;
/** An entry's lines on screen: wider than an export's, the tooltip has the rest. */
const TEXT_MAX = 260;

let canvas: CanvasRenderingContext2D | null | undefined;
function textWidth(text: string): number {
  if (canvas === undefined) {
    canvas = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (canvas !== null) canvas.font = `${FONT}px ${FONT_FAMILY}`;
  }
  // without a canvas: about 0.62 em a character, wide of the truth, so toward space, never overlap
  return canvas === null ? text.length * FONT * 0.62 : canvas.measureText(text).width + 2;
}

/** The option with a wrapping legend `width` px wide, its entries fitted, and the plot moved down by its extra height. */
export function fitLegend(option: EChartsOption, names: readonly string[], chartWidth: number, tooltip?: (name: string) => string): { option: EChartsOption; layout: LegendLayout | null; extra: number } {
  const legend = option.legend as { type?: string; show?: boolean } | undefined;
  if (legend === undefined || legend.show === false || legend.type !== 'scroll' || chartWidth <= 0) return { option, layout: null, extra: 0 };
  const width = Math.max(chartWidth - 40, 120);
  const layout = legendLayout(names, { width, measure: textWidth, textMax: TEXT_MAX });
  const grid = (option.grid ?? {}) as { top?: number };
  const extra = legendExtra(layout);
  return {
    layout,
    extra,
    option: {
      ...option,
      legend: laidOutLegend(legend, layout, width, { show: true, ...(tooltip ? { formatter: (p: { name?: string }) => tooltip(p.name ?? '') } : {}) }),
      grid: { ...grid, top: (grid.top ?? 52) + extra },
    } as EChartsOption,
  };
}
