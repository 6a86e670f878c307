import { createCanvas } from '@napi-rs/canvas';
import type { EChartsOption } from 'echarts';
import { laidOutLegend, legendExtra, legendLayout, legendNames } from '../../contract/report/export-layout.js';
import { fitNames } from '../../contract/name-fit.js';

// A chart option fitted for a PNG: names fitted (contract/name-fit.ts) to what the image has room
// for, measured in its font rather than estimated.

export const PNG_FONT = '"DejaVu Sans", "Liberation Sans", sans-serif';
/** One canvas context to measure text with, in the font the PNG draws. */
export const measure = createCanvas(10, 10).getContext('2d');
const widthIn = (font: string) => (text: string) => {
  measure.font = font;
  return measure.measureText(text).width;
};

/** A PNG has no hover: an entry's lines may be wider than on screen. */
const PNG_LEGEND_TEXT_MAX = 320;

/**
 * A PNG has no hover to show a whole name: legend entries and category labels are fitted by what
 * tells them apart (wrapped, then their shared and constant parts cut); the legend's rows and the
 * plot's top follow from the real font's widths at `width`.
 */
export function forPng(option: EChartsOption, width: number): { option: EChartsOption; extra: number } {
  let out = { ...option } as { legend?: { show?: boolean }; grid?: { top?: number; bottom?: number }; [key: string]: unknown };
  let extra = 0;
  const legend = option.legend as { show?: boolean } | undefined;
  if (legend !== undefined && legend.show !== false) {
    const box = width - 40;
    const names = legendNames(option);
    // withTitle made room for its estimate at the narrowest export: the plot moves by the difference
    const estimated = legendLayout(names);
    const drawn = legendLayout(names, { width: box, measure: widthIn(`12px ${PNG_FONT}`), textMax: PNG_LEGEND_TEXT_MAX });
    out = { ...out, legend: laidOutLegend(legend, drawn, box), grid: { ...out.grid, top: (out.grid?.top ?? 0) + legendExtra(drawn) - legendExtra(estimated) } };
    extra = legendExtra(drawn);
  }
  const x = option.xAxis as { type?: string; data?: unknown[]; axisLabel?: { width?: number } } | undefined;
  if (x !== undefined && !Array.isArray(x) && x.type === 'category' && Array.isArray(x.data) && x.axisLabel?.width !== undefined) {
    // the chart fitted them by an estimate; the real font may need less, never more
    const labels = fitNames(x.data.map(String), { max: x.axisLabel.width - 4, measure: widthIn(`11px ${PNG_FONT}`) });
    out = { ...out, xAxis: { ...x, data: labels } };
    // a slanted label (30 degrees) reaches half its width below the axis
    out = { ...out, grid: { ...out.grid, bottom: Math.max(out.grid?.bottom ?? 0, 40 + x.axisLabel.width / 2) } };
  }
  return { option: out as EChartsOption, extra };
}
