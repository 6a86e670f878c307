import type { echarts } from './echarts-parts';

// What a chart drew as text (axis labels, value labels, legend entries), with where: the canvas
// keeps no text a page or a test can read, so a chart that asks for it exposes it as data-texts,
// read from zrender's display list (the pieces drawn, after ECharts cut or wrapped them).

export interface DrawnText {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
  clone(): Rect;
  applyTransform(m: unknown): void;
}
interface Piece {
  type?: string;
  invisible?: boolean;
  ignore?: boolean;
  style?: { text?: unknown; opacity?: number };
  getBoundingRect?(): Rect;
  getComputedTransform?(): unknown;
}

/** The text pieces the chart shows now, in chart pixels (a text cut with "..." is read as cut). */
export function drawnTexts(instance: echarts.ECharts): DrawnText[] {
  const list = (instance.getZr() as unknown as { storage: { getDisplayList(update?: boolean): Piece[] } }).storage.getDisplayList(true);
  const out: DrawnText[] = [];
  for (const el of list) {
    const text = el.style?.text;
    if (el.type !== 'tspan' || typeof text !== 'string' || text === '' || el.invisible === true || el.ignore === true || el.style?.opacity === 0) continue;
    const rect = el.getBoundingRect?.().clone();
    if (rect === undefined) continue;
    const m = el.getComputedTransform?.();
    if (m) rect.applyTransform(m);
    out.push({ text, x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) });
  }
  return out;
}
