import { createCanvas } from '@napi-rs/canvas';
import type { EChartsOption } from 'echarts';
import { LEGEND_ROW_H, LEGEND_TEXT_MAX, legendNames, legendRows } from '../../contract/report/export-layout.js';
import { fitText } from './canvas-text.js';

// A chart option fitted for a PNG: names cut to what the image has room for, measured in its font.

export const PNG_FONT = '"DejaVu Sans", "Liberation Sans", sans-serif';
/** One canvas context to measure text with, in the font the PNG draws. */
export const measure = createCanvas(10, 10).getContext('2d');

type Named = { name?: unknown };

/** The shortest of `widths` at which the names, cut in the middle, stay told apart (distinct names stay distinct); the widest if none. */
function uniqueCut(names: readonly string[], widths: readonly number[]): { width: number; short: Map<string, string> } {
  for (const width of widths) {
    const short = new Map(names.map((n) => [n, n.split('\n').map((l) => fitText(measure, l, width, 'middle')).join('\n')]));
    if (new Set(short.values()).size === new Set(names).size || width === widths.at(-1)) return { width, short };
  }
  return { width: 0, short: new Map() };
}

/**
 * A PNG has no hover to show a whole name: legend entries and category labels are cut in the middle
 * (a server's label and its matrix cell differ at the two ends), only as far as keeps them apart; the
 * legend's rows and the plot's top follow from the real font's widths at `width`.
 */
export function forPng(option: EChartsOption, width: number): { option: EChartsOption; extra: number } {
  measure.font = `12px ${PNG_FONT}`;
  const list = (Array.isArray(option.series) ? option.series : option.series === undefined ? [] : [option.series]) as Named[];
  const names = legendNames(option);
  const legend = uniqueCut(names, [LEGEND_TEXT_MAX - 4, 300, 420, width - 80]);
  const series = list.map((s) => ({ ...s, name: typeof s.name === 'string' ? (legend.short.get(s.name) ?? s.name) : s.name }));
  let out = { ...option, series } as { legend?: { textStyle?: object; width?: number; data?: string[] }; grid?: { top?: number; bottom?: number }; [key: string]: unknown };
  let extra = 0;
  if (option.legend !== undefined) {
    const box = width - 40;
    const measured = (t: string) => measure.measureText(t).width;
    const estimated = legendRows(names);
    const rows = legendRows([...legend.short.values()], box, measured, legend.width + 4);
    out = { ...out, legend: { ...out.legend, width: box, data: [...new Set(legend.short.values())], textStyle: { ...out.legend?.textStyle, width: legend.width + 4 } } };
    out = { ...out, grid: { ...out.grid, top: (out.grid?.top ?? 0) + (rows - estimated) * LEGEND_ROW_H } };
    extra = Math.max(0, rows - 1) * LEGEND_ROW_H;
  }
  const x = option.xAxis as { type?: string; data?: unknown[]; axisLabel?: { width?: number } } | undefined;
  if (x !== undefined && !Array.isArray(x) && x.type === 'category' && Array.isArray(x.data) && x.axisLabel?.width !== undefined) {
    measure.font = `11px ${PNG_FONT}`;
    const labels = uniqueCut(x.data.map(String), [x.axisLabel.width - 4, 200, 260]);
    out = { ...out, xAxis: { ...x, data: x.data.map((d) => labels.short.get(String(d)) ?? d), axisLabel: { ...x.axisLabel, width: labels.width + 4 } } };
    // a slanted label (30 degrees) reaches half its width below the axis
    out = { ...out, grid: { ...out.grid, bottom: Math.max(out.grid?.bottom ?? 0, 40 + (labels.width + 4) / 2) } };
  }
  return { option: out as EChartsOption, extra };
}

