import type { EChartsOption, HeatmapSeriesOption } from 'echarts';
import { LATENCY_BUCKET_COUNT, latencyBucketHighMs, latencyBucketLowMs } from '../latency-buckets.js';
import type { LiveWindow } from '../results.js';
import { AXIS_NAMES, axisStyle, baseOption } from './chart-options.js';
import type { Palette } from './palette.js';
import { seconds } from './series.js';
import { enUsNumber } from '../number-text.js';

// The latency heatmap (issue 27): time across, total-time buckets up, how many requests as colour,
// made from one server run's stored windows (each keeps its requests per bucket), never from request
// rows, so a run of millions of requests costs what its windows cost. Long runs are drawn in at most
// MAX_COLUMNS columns, each the sum of consecutive windows.

export const MAX_COLUMNS = 240;
// sequential, dark to bright: more requests read as brighter on the dark screen and on white
export const HEATMAP_COLORS = ['#253494', '#2c7fb8', '#41b6c4', '#a1dab4', '#ffffcc'] as const;

export interface LatencyHeatmap {
  /** each column's end, s from the server run's start */
  times: number[];
  /** the buckets shown, contiguous from the lowest to the highest with a request */
  buckets: number[];
  /** [column, row in buckets, requests]; only cells with requests */
  cells: [number, number, number][];
  maxCount: number;
  /** requests counted (all but refused ones, as the latency histograms) */
  requests: number;
  /** windows with requests but no buckets: stored before windows kept them */
  windowsWithout: number;
}

/** A server run's windows (in time order) as heatmap cells. */
export function latencyHeatmap(windows: readonly LiveWindow[]): LatencyHeatmap {
  const withBuckets = windows.filter((w) => w.totalBuckets !== undefined);
  const windowsWithout = windows.filter((w) => w.totalBuckets === undefined && w.count > 0).length;
  const per = Math.max(1, Math.ceil(withBuckets.length / MAX_COLUMNS));
  const columns = Math.ceil(withBuckets.length / per);
  const counts = new Float64Array(columns * LATENCY_BUCKET_COUNT);
  const times: number[] = [];
  let low = LATENCY_BUCKET_COUNT;
  let high = -1;
  let requests = 0;
  for (let c = 0; c < columns; c++) {
    const last = Math.min(withBuckets.length, (c + 1) * per);
    for (let i = c * per; i < last; i++) {
      const b = withBuckets[i]!.totalBuckets!;
      for (let j = 0; j + 1 < b.length; j += 2) {
        const k = b[j]!;
        const n = b[j + 1]!;
        // stored text is data: a bucket that is not one of ours, or a count that is not one, is skipped
        if (!Number.isInteger(k) || k < 0 || k >= LATENCY_BUCKET_COUNT || !(n > 0 && Number.isFinite(n))) continue;
        counts[c * LATENCY_BUCKET_COUNT + k]! += n;
        requests += n;
        if (k < low) low = k;
        if (k > high) high = k;
      }
    }
    times.push(seconds(withBuckets[last - 1]!.tMs));
  }
  const buckets: number[] = [];
  for (let k = low; k <= high; k++) buckets.push(k);
  const cells: [number, number, number][] = [];
  let maxCount = 0;
  for (let c = 0; c < columns; c++) {
    for (let k = low; k <= high; k++) {
      const n = counts[c * LATENCY_BUCKET_COUNT + k]!;
      if (n === 0) continue;
      cells.push([c, k - low, n]);
      if (n > maxCount) maxCount = n;
    }
  }
  return { times, buckets, cells, maxCount, requests, windowsWithout };
}

/** a bucket's edge in ms, thousands separated as every table writes them (3,277, not 3277) */
const ms = (v: number) => {
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3;
  return enUsNumber(v, digits, digits);
};

/** A bucket's range as its row is labelled ("1.13-1.35", "3,277-3,897"), in ms. */
export function bucketLabel(k: number): string {
  return `${ms(latencyBucketLowMs(k))}-${ms(latencyBucketHighMs(k))}`;
}

export const HEATMAP_AXIS_NAMES = { latency: 'total time (ms), log buckets', count: 'requests' } as const;

export function latencyHeatmapOption(h: LatencyHeatmap, p: Palette): EChartsOption {
  const series: HeatmapSeriesOption = {
    type: 'heatmap',
    name: HEATMAP_AXIS_NAMES.count,
    data: h.cells,
    progressive: 0,
    emphasis: { disabled: true },
  };
  const style = axisStyle(p);
  return {
    ...baseOption(p),
    legend: { show: false },
    tooltip: { ...baseOption(p).tooltip, trigger: 'item' },
    grid: { left: 88, right: 96, top: 52, bottom: 44, containLabel: false },
    xAxis: { type: 'category', name: AXIS_NAMES.time, nameLocation: 'middle', nameGap: 26, data: h.times.map(String), ...style, splitLine: { show: false }, splitArea: { show: false } },
    yAxis: {
      type: 'category',
      name: HEATMAP_AXIS_NAMES.latency,
      nameLocation: 'middle',
      nameGap: 72,
      data: h.buckets.map((k) => ms(latencyBucketLowMs(k))),
      ...style,
      // about ten labels whatever the range: every bucket's would overprint one another
      axisLabel: { ...style.axisLabel, interval: Math.max(0, Math.ceil(h.buckets.length / 10) - 1) },
      splitLine: { show: false },
      splitArea: { show: false },
    },
    visualMap: {
      type: 'continuous',
      min: 0,
      max: Math.max(1, h.maxCount),
      calculable: false,
      // upright at the right edge: clear of the titles the exports put on top
      orient: 'vertical',
      top: 'middle',
      right: 4,
      itemHeight: 120,
      itemWidth: 10,
      text: [`${enUsNumber(h.maxCount)}`, '0 requests'],
      textStyle: { color: p.muted, fontSize: 11 },
      inRange: { color: [...HEATMAP_COLORS] },
    },
    series: [series],
  };
}
