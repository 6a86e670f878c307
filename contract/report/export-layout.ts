import type { EChartsOption } from 'echarts';
import type { Palette } from './palette.js';

// How a chart leaves the app (PNG, HTML report, the screen's PNG button): its title drawn into the
// image and a legend that wraps onto as many rows as it needs (a PNG cannot page a legend), with
// each entry cut to a fixed width with "..." (the HTML's hover shows the whole name). The plot is
// moved down by the rows the legend takes. Text widths are estimated (no canvas here): generously,
// so an estimate errs toward a little space, never toward a legend over the plot.

/** The narrowest an exported chart is drawn (HTML report columns); the legend box is laid out for it. */
export const EXPORT_CHART_WIDTH = 620;
const LEGEND_FONT = 12;
/** An entry's text is cut at this width (px). */
export const LEGEND_TEXT_MAX = 220;
const ITEM_WIDTH = 18;
const ITEM_GAP = 10;
/** One legend row: the text's line and the gap to the next row. */
export const LEGEND_ROW_H = 18;
/** DejaVu Sans' average advance is about 0.6 em; 0.62 errs wide. */
const textWidth = (text: string, font: number): number => text.length * font * 0.62;

/** The legend's entries: its own data when given, else every named series once. */
export function legendNames(option: EChartsOption): string[] {
  const legend = option.legend as { data?: unknown[] } | undefined;
  if (Array.isArray(legend?.data)) return legend.data.map((d) => (typeof d === 'string' ? d : String((d as { name?: unknown }).name ?? '')));
  const series = (Array.isArray(option.series) ? option.series : option.series === undefined ? [] : [option.series]) as { name?: unknown }[];
  return [...new Set(series.map((s) => (typeof s.name === 'string' ? s.name : '')).filter((n) => n !== ''))];
}

/** How many rows the entries take in a legend box `width` wide (entries wrap, as ECharts' plain legend does); `measure` gives a text's width. */
export function legendRows(names: readonly string[], width = EXPORT_CHART_WIDTH - 40, measure = (t: string) => textWidth(t, LEGEND_FONT), textMax = LEGEND_TEXT_MAX): number {
  if (names.length === 0) return 0;
  let rows = 1;
  let x = 0;
  for (const name of names) {
    const item = ITEM_WIDTH + 5 + Math.min(measure(name), textMax) + ITEM_GAP;
    if (x > 0 && x + item > width) {
      rows++;
      x = 0;
    }
    x += item;
  }
  return rows;
}

/** The extra height (px) a chart's wrapped legend takes beyond one row: add it to the image to keep the plot's size. */
export function legendExtraHeight(option: EChartsOption): number {
  if (option.legend === undefined) return 0;
  return Math.max(0, legendRows(legendNames(option)) - 1) * LEGEND_ROW_H;
}

/** A chart as it leaves the app (PNG, HTML): its title and subtitle drawn into the image, its legend wrapped, room made for both. */
export function withTitle(option: EChartsOption, title: string, p: Palette, subtitle?: string): EChartsOption {
  const grid = (option.grid ?? {}) as { top?: number };
  const titleH = subtitle ? 52 : 34;
  const box = EXPORT_CHART_WIDTH - 40;
  const rows = option.legend === undefined ? 0 : legendRows(legendNames(option), box);
  const base = option.legend as { textStyle?: object } | undefined;
  const legend =
    base === undefined
      ? undefined
      : {
          ...base,
          type: 'plain' as const,
          top: titleH,
          left: 'center',
          width: box,
          textStyle: { ...base.textStyle, width: LEGEND_TEXT_MAX, overflow: 'truncate' as const, ellipsis: '...' },
          tooltip: { show: true },
        };
  // long titles are cut to the box with "..." rather than run off both edges
  const cut = { width: box, overflow: 'truncate' as const, ellipsis: '...' };
  return {
    ...option,
    title: { text: title, subtext: subtitle, left: 'center', top: 4, textStyle: { color: p.text, fontSize: 15, fontWeight: 'bold', ...cut }, subtextStyle: { color: p.muted, fontSize: 12, ...cut } },
    legend,
    grid: { ...grid, top: (grid.top ?? 52) + titleH + Math.max(0, rows - 1) * LEGEND_ROW_H },
  } as EChartsOption;
}
