import type { EChartsOption } from 'echarts';
import * as options from '../../contract/report/chart-options';
import { DARK } from '../../contract/report/palette';

// The screen's look: the report model's chart options (contract/report) in the dark palette. The
// series colours are the report's, so a chart exported as PNG or HTML has the colours seen here.

export { colorAt, ERROR_COLOR, METRIC_COLORS, TARGET_COLORS } from '../../contract/report/palette';
export { sig3 } from '../../contract/report/formatters';

export const axisStyle = options.axisStyle(DARK);
export const timeAxis = (maxSec?: number): EChartsOption['xAxis'] => options.timeAxis(DARK, maxSec);
export const valueAxis = (name: string, opts: { log?: boolean; position?: 'left' | 'right'; min?: number } = {}) => options.valueAxis(DARK, name, opts);
export const baseOption = (): EChartsOption => options.baseOption(DARK);
