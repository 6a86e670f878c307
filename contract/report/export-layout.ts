import type { EChartsOption } from 'echarts';
import { fitNames, type Measure } from '../name-fit.js';
import type { Palette } from './palette.js';

// How a legend is laid out, on screen and as a chart leaves the app (PNG, HTML report, the screen's
// PNG button): it wraps onto as many rows as it needs (a PNG cannot page a legend), each entry's
// text fitted by contract/name-fit.ts (wrapped onto two lines, cut only past that, every entry
// told apart), and the plot moved down by the rows it takes. ECharts draws an entry of k lines
// k * LEGEND_LINE_H tall and puts ITEM_GAP between rows and entries, so the rows counted here are
// the rows drawn. Without a canvas (the HTML report is laid out before a browser opens it), text
// widths are estimated generously: an estimate errs toward a little space, never toward overlap.

/** The narrowest an exported chart is drawn (HTML report columns); the legend box is laid out for it. */
export const EXPORT_CHART_WIDTH = 620;
const LEGEND_FONT = 12;
/** An entry's lines are fitted to this width (px). */
export const LEGEND_TEXT_MAX = 220;
/** Lines an entry may wrap onto before it is cut. */
export const LEGEND_LINES = 2;
const ITEM_WIDTH = 18;
/** between an entry's symbol and its text (ECharts') */
const SYMBOL_GAP = 5;
/** between entries and between rows: the legend's itemGap */
const ITEM_GAP = 6;
/** One line of an entry's text: the legend's textStyle.lineHeight. */
export const LEGEND_LINE_H = 14;
// Character advances (em) by class, each DejaVu Sans' widest in its class rounded up, so an estimate
// is never short of DejaVu (narrower fonts only leave more room): about 4 % over a matrix name's
// true width, where one 0.62 em for every character was 17 % over and laid a legend out in rows
// it did not need.
const NARROW = /[ ·iljtfr.,:;|!'()[\]/\-IJ]/;
const WIDE = /[mMW@%]/;
const SYMBOL = /[=+<>~#&"*^]/;
const advance = (c: string): number => (NARROW.test(c) ? 0.42 : WIDE.test(c) ? 1 : SYMBOL.test(c) ? 0.84 : /[A-Z]/.test(c) ? 0.8 : 0.64);

/** A text's width in `px` sans-serif without a canvas (a report is laid out before anything draws it): never short of DejaVu Sans'. */
export const estimatedIn = (px: number): Measure => (text) => {
  let em = 0;
  for (const c of text) em += advance(c);
  return em * px;
};
export const estimatedWidth: Measure = estimatedIn(LEGEND_FONT);

/** The legend's entries: its own data when given, else every named series once. */
export function legendNames(option: EChartsOption): string[] {
  const legend = option.legend as { data?: unknown[] } | undefined;
  if (Array.isArray(legend?.data)) return legend.data.map((d) => (typeof d === 'string' ? d : String((d as { name?: unknown }).name ?? '')));
  const series = (Array.isArray(option.series) ? option.series : option.series === undefined ? [] : [option.series]) as { name?: unknown }[];
  return [...new Set(series.map((s) => (typeof s.name === 'string' ? s.name : '')).filter((n) => n !== ''))];
}

export interface LegendLayout {
  /** each entry's text as drawn, by its series name: fitted, "\n" between its lines */
  labels: Map<string, string>;
  rows: number;
  /** the legend's height (px): its rows' lines and the gaps between them */
  height: number;
}

export interface LegendRoom {
  /** the legend box's width (px) */
  width?: number;
  /** widths of text in the legend's font */
  measure?: Measure;
  /** the widest an entry's line may be */
  textMax?: number;
}

/** The entries fitted to the box and laid out as ECharts' plain legend lays them: rows, and how tall. */
export function legendLayout(names: readonly string[], { width = EXPORT_CHART_WIDTH - 40, measure = estimatedWidth, textMax = LEGEND_TEXT_MAX }: LegendRoom = {}): LegendLayout {
  const max = Math.max(40, Math.min(textMax, width - ITEM_WIDTH - SYMBOL_GAP - ITEM_GAP));
  const fitted = fitNames(names, { max, lines: LEGEND_LINES, measure });
  const labels = new Map(names.map((n, i) => [n, fitted[i]!]));
  if (names.length === 0) return { labels, rows: 0, height: 0 };
  let rows = 1;
  let x = 0;
  let lines = 0;
  let height = 0;
  for (const text of labels.values()) {
    const textLines = text.split('\n');
    const item = ITEM_WIDTH + SYMBOL_GAP + Math.max(...textLines.map(measure)) + ITEM_GAP;
    if (x > 0 && x + item > width) {
      rows++;
      height += lines * LEGEND_LINE_H + ITEM_GAP;
      x = 0;
      lines = 0;
    }
    x += item;
    lines = Math.max(lines, textLines.length);
  }
  return { labels, rows, height: height + lines * LEGEND_LINE_H };
}

/** The height (px) a legend takes beyond one row of one line: what the plot moves down by. */
export const legendExtra = (layout: Pick<LegendLayout, 'height'>): number => Math.max(0, layout.height - LEGEND_LINE_H);

/** The legend option drawing `layout`: plain (wrapping, no pager), each entry its fitted text, the whole name on hover. */
export function laidOutLegend(legend: object, layout: LegendLayout, width: number, tooltip: object = { show: true }): Record<string, unknown> {
  const base = legend as { textStyle?: object };
  return {
    ...base,
    type: 'plain',
    width,
    itemGap: ITEM_GAP,
    formatter: (name: string) => layout.labels.get(name) ?? name,
    textStyle: { ...base.textStyle, lineHeight: LEGEND_LINE_H, width: undefined, overflow: 'none' },
    tooltip,
  };
}

/** An exported chart's legend as withTitle laid it out; null where it shows none. */
function exportLegend(option: EChartsOption): LegendLayout | null {
  const legend = option.legend as { show?: boolean } | undefined;
  return legend === undefined || legend.show === false ? null : legendLayout(legendNames(option));
}

/** The legend's entries as an exported chart draws them (by series name): the HTML report carries them, since JSON drops the formatter. */
export function exportLegendLabels(option: EChartsOption): Record<string, string> {
  return Object.fromEntries(exportLegend(option)?.labels ?? []);
}

/** The height an exported chart's legend takes beyond one row: add it to the chart's box so its plot keeps its size. */
export function exportLegendExtra(option: EChartsOption): number {
  const layout = exportLegend(option);
  return layout === null ? 0 : legendExtra(layout);
}

/** A chart as it leaves the app (PNG, HTML): its title and subtitle drawn into the image, its legend wrapped, room made for both. */
export function withTitle(option: EChartsOption, title: string, p: Palette, subtitle?: string): EChartsOption {
  const grid = (option.grid ?? {}) as { top?: number };
  const titleH = subtitle ? 52 : 34;
  const box = EXPORT_CHART_WIDTH - 40;
  const shown = option.legend !== undefined && (option.legend as { show?: boolean }).show !== false;
  const layout = shown ? legendLayout(legendNames(option), { width: box }) : null;
  const legend = option.legend === undefined ? undefined : layout === null ? option.legend : { ...laidOutLegend(option.legend, layout, box), top: titleH, left: 'center' };
  // long titles are cut to the box with "..." rather than run off both edges
  const cut = { width: box, overflow: 'truncate' as const, ellipsis: '...' };
  return {
    ...option,
    title: { text: title, subtext: subtitle, left: 'center', top: 4, textStyle: { color: p.text, fontSize: 15, fontWeight: 'bold', ...cut }, subtextStyle: { color: p.muted, fontSize: 12, ...cut } },
    legend,
    grid: { ...grid, top: (grid.top ?? 52) + titleH + (layout === null ? 0 : legendExtra(layout)) },
  } as EChartsOption;
}
