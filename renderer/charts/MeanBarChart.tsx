import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { meanBarsCrowded, meanBarsOption, meanRowsHeight, withTitle, type MeanBar } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { meanBarsTooltip } from './tooltip-html';

export type { MeanBar } from '../../contract/report/chart-options';

const TITLE = 'Mean wait, processing and total time';

/**
 * Mean wait, processing and total time per server, side by side (seed 000's figure; the report's
 * option). Many or long names: a row per server run, the chart as tall as its rows, so each short
 * name is read whole (a column axis would slant and cut them); the full name is the tooltip's.
 */
export function MeanBarChart({ bars, height = 280, testId }: { bars: readonly MeanBar[]; height?: number; testId?: string }) {
  const rows = meanBarsCrowded(bars);
  const option = useMemo<EChartsOption>(() => {
    const o = meanBarsOption(bars, DARK, rows ? 'rows' : 'columns');
    const titleOf = (i: number) => bars[i]?.title ?? bars[i]?.label.replace(/\n/g, ' · ') ?? '';
    return { ...o, tooltip: { ...(o.tooltip as object), formatter: (params) => meanBarsTooltip(Array.isArray(params) ? params : [params], titleOf) } };
  }, [bars, rows]);
  return (
    <EChart
      option={option}
      height={rows ? Math.max(height, meanRowsHeight(bars.length)) : height}
      testId={testId}
      points={bars.length}
      drawnText
      ariaLabel="mean wait, processing and total per server"
      png={{ title: TITLE, option: () => withTitle(meanBarsOption(bars, LIGHT), TITLE, LIGHT) }}
    />
  );
}
