import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { BrowserContext, Page } from 'playwright-core';

// Reading the exported reports back: an HTML report opened from disk with the network switched off,
// its charts' pixels and its tables' exact figures; PNGs decoded to pixels.

/** Switches the context's network off: offline, and any request that is not a file: URL is refused and recorded. */
export async function noNetwork(context: BrowserContext): Promise<string[]> {
  const attempts: string[] = [];
  await context.setOffline(true);
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    attempts.push(url);
    return route.abort();
  });
  return attempts;
}

/** Per chart: how many of its canvas pixels are drawn (not transparent, not white); 0 for a chart without data. */
// Page-side scripts are strings: this folder typechecks without the DOM library.
const CHART_INK = `(() => {
  const out = {};
  for (const el of document.querySelectorAll('[data-chart-id]')) {
    let ink = 0;
    for (const canvas of el.querySelectorAll('canvas')) {
      const ctx = canvas.getContext('2d');
      if (ctx === null) continue;
      const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) ink++;
    }
    // a chart with no data still draws its axes: count only charts whose series have points
    out[el.dataset.chartId] = Number(el.dataset.series) > 0 ? ink : 0;
  }
  return out;
})()`;

/** Per chart: how many of its canvas pixels are drawn (not transparent, not white); 0 for a chart without data. */
export function chartInk(page: Page): Promise<Record<string, number>> {
  return page.evaluate<Record<string, number>>(CHART_INK);
}

export interface PhaseFigures {
  targetId: number;
  phaseIndex: number;
  /** data-field -> exact value */
  values: Record<string, number>;
}

/** Every phase table of a run report: its exact figures by field (count, throughput, total.p99, errors.timeout ...). */
const PHASE_FIGURES = `[...document.querySelectorAll('section.phase')].map((s) => {
  const values = {};
  for (const td of s.querySelectorAll('td[data-field][data-value]')) values[td.dataset.field] = Number(td.dataset.value);
  return { targetId: Number(s.dataset.targetId), phaseIndex: Number(s.dataset.phaseIndex), values };
})`;

/** Every phase table of a run report: its exact figures by field (count, throughput, total.p99, errors.timeout ...). */
export function phaseFigures(page: Page): Promise<PhaseFigures[]> {
  return page.evaluate<PhaseFigures[]>(PHASE_FIGURES);
}

/** A comparison report's paired phases: server, phase, each run's request count, and per ratio whether it is beyond noise. */
export function reportPairs(page: Page): Promise<{ server: string; phase: string; requests: number[]; beyondNoise: string[] }[]> {
  return page.evaluate(`[...document.querySelectorAll('section.pair')].map((s) => ({
    server: s.dataset.server,
    phase: s.dataset.phase,
    requests: [...s.querySelectorAll('tr[data-metric="requests"] td:not(.ratio)')].map((td) => Number(td.dataset.value)),
    beyondNoise: [...s.querySelectorAll('td.ratio')].map((td) => td.closest('tr').dataset.metric + ':' + td.dataset.beyondNoise),
  }))`);
}

/** The compare view's tables, read the same way from the page. */
export function viewPairs(page: Page): Promise<{ server: string; phase: string; requests: number[]; beyondNoise: string[] }[]> {
  return page.evaluate(`[...document.querySelectorAll('[data-testid="compare-pair"]')].map((s) => {
    const title = s.querySelector('h3')?.textContent ?? '';
    const at = title.lastIndexOf(' · ');
    const cells = [...s.querySelectorAll('tr[data-metric="requests"] td.num:not(.ratio-col)')].map((td) => Number((td.textContent ?? '').replace(/,/g, '')));
    const beyondNoise = [...s.querySelectorAll('td.ratio-col')].map((td) => td.closest('tr').dataset.metric + ':' + td.dataset.beyondNoise);
    return { server: title.slice(0, at).trim(), phase: title.slice(at + 3).trim(), requests: cells, beyondNoise };
  })`);
}

/** Every exact figure of a report file, in document order. */
export function figuresOf(html: string): number[] {
  return [...html.matchAll(/data-value="([^"]*)"/g)].map((m) => Number(m[1]));
}

export async function pixels(png: Buffer): Promise<{ width: number; height: number; at(x: number, y: number): [number, number, number]; inkIn(x: number, y: number, w: number, h: number): number }> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, img.width, img.height).data;
  const at = (x: number, y: number): [number, number, number] => {
    const i = (y * img.width + x) * 4;
    return [d[i]!, d[i + 1]!, d[i + 2]!];
  };
  return {
    width: img.width,
    height: img.height,
    at,
    inkIn: (x, y, w, h) => {
      let ink = 0;
      for (let yy = y; yy < Math.min(y + h, img.height); yy++) for (let xx = x; xx < Math.min(x + w, img.width); xx++) if (at(xx, yy).some((c) => c < 200)) ink++;
      return ink;
    },
  };
}
