import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { meanBarsOption, withTitle, type MeanBar } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { sig3 } from './theme';

export type { MeanBar } from '../../contract/report/chart-options';

const TITLE = 'Mean wait, processing and total time';

/** Mean wait, processing and total time per server, side by side (seed 000's figure; the report's option). */
export function MeanBarChart({ bars, height = 280, testId }: { bars: readonly MeanBar[]; height?: number; testId?: string }) {
  const option = useMemo<EChartsOption>(() => {
    const o = meanBarsOption(bars, DARK);
    return { ...o, tooltip: { ...(o.tooltip as object), valueFormatter: (v) => `${sig3(v)} ms` } };
  }, [bars]);
  return <EChart option={option} height={height} testId={testId} points={bars.length} ariaLabel="mean wait, processing and total per server" png={{ title: TITLE, option: () => withTitle(meanBarsOption(bars, LIGHT), TITLE, LIGHT) }} />;
}
