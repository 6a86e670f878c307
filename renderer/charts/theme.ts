import type { EChartsOption } from 'echarts';

// One look for every chart: the app's dark palette, readable axis labels, units in axis names.

export const TARGET_COLORS = ['#5b9dff', '#f0883e', '#3fb950', '#c297ff', '#ff6b8b', '#39c5cf', '#e3b341', '#a0a8b8'];
export const METRIC_COLORS = { total: '#5b9dff', wait: '#f0a03e', processing: '#3fb950' } as const;
export const ERROR_COLOR = '#f85149';

export const colorAt = (i: number): string => TARGET_COLORS[i % TARGET_COLORS.length]!;

const text = '#c9d1dc';
const muted = '#8b95a7';
const line = '#2b3342';

export const axisStyle = {
  nameTextStyle: { color: muted, fontSize: 12 },
  axisLabel: { color: muted, fontSize: 11 },
  axisLine: { lineStyle: { color: line } },
  axisTick: { lineStyle: { color: line } },
  splitLine: { lineStyle: { color: '#222938' } },
};

export function timeAxis(maxSec?: number): EChartsOption['xAxis'] {
  return {
    type: 'value',
    name: 'time since server start (s)',
    nameLocation: 'middle',
    nameGap: 26,
    min: 0,
    max: maxSec,
    ...axisStyle,
    splitLine: { show: false },
  };
}

export function valueAxis(name: string, opts: { log?: boolean; position?: 'left' | 'right'; min?: number } = {}) {
  return {
    type: opts.log === true ? ('log' as const) : ('value' as const),
    name,
    nameLocation: 'middle' as const,
    nameGap: 46,
    position: opts.position,
    min: opts.min,
    ...axisStyle,
    splitLine: opts.position === 'right' ? { show: false } : axisStyle.splitLine,
  };
}

export function baseOption(): EChartsOption {
  return {
    backgroundColor: 'transparent',
    animation: false,
    textStyle: { color: text, fontFamily: 'Inter, "Segoe UI", system-ui, sans-serif' },
    grid: { left: 64, right: 28, top: 52, bottom: 44, containLabel: false },
    legend: { top: 0, left: 'center', type: 'scroll', textStyle: { color: text, fontSize: 12 }, itemWidth: 18, itemHeight: 8, pageTextStyle: { color: muted } },
    tooltip: {
      trigger: 'axis',
      backgroundColor: '#1b212c',
      borderColor: '#333c4d',
      textStyle: { color: '#e3e7ee', fontSize: 12 },
      axisPointer: { lineStyle: { color: '#56607a' } },
    },
  };
}

/** Rounds for tooltips: 3 significant digits is what a latency reading deserves. */
export const sig3 = (v: unknown): string => (typeof v === 'number' ? Number(v.toPrecision(3)).toLocaleString('en-US') : String(v));
