import type { EChartsOption } from 'echarts';
import { FONT_FAMILY } from '../../contract/report/palette';

// A legend on screen wraps onto as many rows as its entries need and the plot moves down by them,
// instead of ECharts' scroll legend, which pages eight server runs as "1/8" with arrows. Text is
// measured in the chart's font (a canvas), so the rows counted are the rows ECharts draws; an entry
// longer than TEXT_MAX is cut with "..." and shown whole in the legend's tooltip, which names every
// entry in full (a server run's short name stands for its cell's key=value path).

const FONT = 12;
const TEXT_MAX = 260;
const ITEM = 18 + 5;
const GAP = 10;
/** One legend row as ECharts lays them (12 px text, rows about 17 px apart). */
export const LEGEND_ROW_H = 18;

let measure: CanvasRenderingContext2D | null | undefined;
function textWidth(text: string): number {
  if (measure === undefined) {
    measure = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (measure !== null) measure.font = `${FONT}px ${FONT_FAMILY}`;
  }
  // without a canvas: about 0.62 em a character, wide of the truth, so toward space, never overlap
  return Math.min(measure === null ? text.length * FONT * 0.62 : measure.measureText(text).width + 2, TEXT_MAX);
}

/** How many rows the names take in a legend `width` px wide (ECharts' plain legend wraps the same way). */
export function legendRows(names: readonly string[], width: number): number {
  if (names.length === 0) return 0;
  let rows = 1;
  let x = 0;
  for (const name of names) {
    const item = ITEM + textWidth(name) + GAP;
    if (x > 0 && x + item > width) {
      rows++;
      x = 0;
    }
    x += item;
  }
  return rows;
}

/** The option with a wrapping legend `width` px wide and the plot moved down by its extra rows. */
export function fitLegend(option: EChartsOption, names: readonly string[], chartWidth: number, tooltip?: (name: string) => string): { option: EChartsOption; rows: number } {
  const legend = option.legend as { type?: string; show?: boolean; textStyle?: object } | undefined;
  if (legend === undefined || legend.show === false || legend.type !== 'scroll' || chartWidth <= 0) return { option, rows: 0 };
  const width = Math.max(chartWidth - 40, 120);
  const rows = legendRows(names, width);
  const grid = (option.grid ?? {}) as { top?: number };
  return {
    rows,
    option: {
      ...option,
      legend: { ...legend, type: 'plain', width, textStyle: { ...legend.textStyle, width: TEXT_MAX, overflow: 'truncate', ellipsis: '...' }, tooltip: { show: true, ...(tooltip ? { formatter: (p: { name?: string }) => tooltip(p.name ?? '') } : {}) } },
      grid: { ...grid, top: (grid.top ?? 52) + Math.max(0, rows - 1) * LEGEND_ROW_H },
    } as EChartsOption,
  };
}
