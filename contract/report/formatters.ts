import type { EChartsOption } from 'echarts';
import { AXIS_NAMES } from './chart-options.js';
import { percentLabel } from './percentiles.js';
import { enUsNumber } from '../number-text.js';

// The few labels a JSON option cannot say (ECharts formatters are functions): added where a chart
// is drawn (screen, PNG), and in the HTML report by its own small script (html.ts).

/** Rounds for labels and tooltips: 3 significant digits is what a latency reading deserves. */
export const sig3 = (v: unknown): string => (typeof v === 'number' ? enUsNumber(Number(v.toPrecision(3))) : String(v));

type Axis = { name?: string; axisLabel?: object };

export function withFormatters(option: EChartsOption): EChartsOption {
  const x = option.xAxis as Axis | undefined;
  if (x !== undefined && !Array.isArray(x) && x.name === AXIS_NAMES.percentile) {
    return { ...option, xAxis: { ...x, axisLabel: { ...x.axisLabel, formatter: (v: number) => percentLabel(v) } } as EChartsOption['xAxis'] };
  }
  return option;
}
