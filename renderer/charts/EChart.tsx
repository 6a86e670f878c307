import { useEffect, useRef, useState } from 'react';
import type { EChartsOption } from 'echarts';
import { chartDataUrl, downloadDataUrl, pngName } from './chart-png';
import { dropDraw, queueDraw } from './draw-queue';
import { drawnLegend } from '../../contract/report/drawn-legend';
import { drawnTexts } from './drawn-text';
import { evidenceLabelIn } from './evidence-area';
import { echarts } from './echarts-parts';
import { fitLegend } from './legend-fit';
import { legendTooltip } from './tooltip-html';
import { currentZoom, keepZoom } from './zoom';

export interface EChartProps {
  option: EChartsOption;
  height?: number;
  /** Live charts replace their series each frame; merge only where a chart keeps user zoom. */
  notMerge?: boolean;
  testId?: string;
  /** Exposed as data-points for tests and for anyone inspecting the page. */
  points?: number;
  ariaLabel?: string;
  /** the PNG button: the chart's title and its option as the reports draw it (light, titled) */
  png?: { title: string; option: () => EChartsOption };
  /** a legend entry's whole name by its short one (a server run's cell as key=value), shown on hovering it */
  fullNames?: ReadonlyMap<string, string>;
  /** expose the text drawn (labels, with where) as data-texts, for tests and inspection (may change after mount) */
  drawnText?: boolean;
  /**
   * What the option shows, in short (groups.ts drawnDataOf): each draw of a new option exposes it with
   * the count of such draws as data-drawn="<draws>: <key>", so a redraw that showed no new data reads
   * as two draws of one key (tests, inspection).
   */
  dataKey?: string;
}

/** How many of the option's series have data: exposed as data-series, so an empty chart shows. */
export function filledSeries(option: EChartsOption): number {
  const list = Array.isArray(option.series) ? option.series : option.series === undefined ? [] : [option.series];
  return list.filter((s) => Array.isArray(s.data) && s.data.length > 0).length;
}

/** The distinct names the legend shows (series names): exposed as data-legend for tests. */
export function legendNames(option: EChartsOption): string[] {
  const list = Array.isArray(option.series) ? option.series : option.series === undefined ? [] : [option.series];
  return [...new Set(list.map((s) => (typeof s.name === 'string' ? s.name : '')).filter((n) => n !== ''))];
}

function showZoom(el: HTMLElement | null, instance: echarts.ECharts): void {
  const zoom = currentZoom(instance);
  if (el !== null && zoom !== null) el.dataset.zoom = `${Math.round(zoom.start)}-${Math.round(zoom.end)}`;
}

/**
 * A thin ECharts wrapper: init on mount, setOption on change, resize with its box, dispose on
 * unmount. Updates are queued so that a view redrawing many charts spreads them over frames.
 */
export function EChart({ option, height = 260, notMerge = true, testId, points, ariaLabel, png, fullNames, drawnText = false, dataKey }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  // what was last drawn and at which width: a new width rewraps the legend, so it draws again
  const drawn = useRef<{ option: EChartsOption; width: number } | null>(null);
  // the option to draw now: a redraw for a new width replaces a queued draw of a new option, so it
  // must draw that option, not the one last drawn (a scatter stayed empty when its box widened
  // while its points were queued)
  const latest = useRef(option);
  latest.current = option;
  // read by the legend's tooltip when it shows, so a new map needs no redraw
  const names = useRef(fullNames);
  names.current = fullNames;
  // read when a draw finishes: a chart may start exposing its text later (the Run view's charts, once the run ended)
  const exposeText = useRef(drawnText);
  exposeText.current = drawnText;
  // the box grows by the legend's extra rows, so the plot keeps its height however many server runs
  const [legendExtra, setLegendExtra] = useState(0);
  // draws of a new option (not the redraws for a new width): data-drawn
  const optionDraws = useRef(0);
  // what the legend read last was laid out from (width, names, legend option)
  const legendRead = useRef<string | null>(null);

  /** The option as drawn at the box's width: the legend wrapped, the plot below it, a person's zoom kept. */
  const draw = (instance: echarts.ECharts, el: HTMLElement, next: EChartsOption): void => {
    // read once, before setOption: read after it, the width forced a layout of the page (setOption touches the DOM)
    const width = el.clientWidth;
    const fitted = fitLegend(next, legendNames(next), width, (name) => legendTooltip(name, names.current));
    drawn.current = { option: next, width };
    el.dataset.legendRows = String(fitted.layout?.rows ?? 0);
    setLegendExtra(fitted.extra);
    instance.setOption(notMerge ? keepZoom(fitted.option, currentZoom(instance)) : fitted.option, { notMerge });
    // the legend's entries as drawn (fitted, cut or wrapped), readable on the page: data-legend-drawn.
    // Read again only when what lays them out changed (names, width, the legend's option): reading
    // walks the chart's whole display list, a twentieth of a live draw, and a live chart's legend
    // stays the same over most of its draws
    const laidOut = `${width} ${JSON.stringify(legendNames(next))} ${JSON.stringify(fitted.option.legend ?? null)}`;
    if (laidOut !== legendRead.current) {
      legendRead.current = laidOut;
      const legend = JSON.stringify(drawnLegend(instance));
      if (el.dataset.legendDrawn !== legend) el.dataset.legendDrawn = legend;
    }
  };

  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const instance = echarts.init(el, null, { renderer: 'canvas' });
    chart.current = instance;
    // the zoom as drawn, readable on the page (tests, inspection): start-end in % of the time axis
    instance.on('datazoom', () => showZoom(el, instance));
    instance.on('finished', () => {
      if (exposeText.current) el.dataset.texts = JSON.stringify(drawnTexts(instance));
    });
    const observer = new ResizeObserver(() => {
      instance.resize();
      const last = drawn.current;
      if (last !== null && last.width !== el.clientWidth) queueDraw(el, () => !instance.isDisposed() && draw(instance, el, latest.current));
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      dropDraw(el);
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (instance === null || box.current === null) return;
    // drawn in a coming frame, a few charts per frame (draw-queue.ts), not all in this one
    queueDraw(box.current, () => {
      // a live chart replaces its whole option every window: the zoom a person set is carried over
      if (instance.isDisposed() || box.current === null) return;
      draw(instance, box.current, option);
      showZoom(box.current, instance);
      optionDraws.current++;
      if (dataKey !== undefined) box.current.dataset.drawn = `${optionDraws.current}: ${dataKey}`;
    });
  }, [option, notMerge]);

  const chartBox = (
    <div
      ref={box}
      className="echart"
      style={{ height: height + legendExtra }}
      data-testid={testId}
      data-points={points}
      data-series={filledSeries(option)}
      data-legend={JSON.stringify(legendNames(option))}
      data-evidence={evidenceLabelIn(option) ?? undefined}
      role="img"
      aria-label={ariaLabel}
    />
  );
  if (png === undefined) return chartBox;
  return (
    <div className="echart-wrap">
      {chartBox}
      <button
        type="button"
        className="btn chart-png"
        title={`save "${png.title}" as PNG (2x, white background)`}
        data-testid="chart-png"
        onClick={() => downloadDataUrl(chartDataUrl(png.option()), pngName(png.title))}
      >
        PNG
      </button>
    </div>
  );
}
