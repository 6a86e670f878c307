import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { percentileOption, withTitle, type PercentileCurve } from '../../contract/report/chart-options';
import { withFormatters } from '../../contract/report/formatters';
import { DARK, LIGHT } from '../../contract/report/palette';
import { percentLabel } from '../../contract/report/percentiles';
import { EChart } from './EChart';
import { baseOption } from './theme';
import { percentileTooltip } from './tooltip-html';

export type { PercentileCurve } from '../../contract/report/chart-options';

const TITLE = 'Latency by percentile (HDR histograms)';

/** Latency by percentile from the stored HDR histograms, log-scaled toward the tail (the report's option). */
export function PercentileCurveChart({ curves, log, height = 320, testId }: { curves: readonly PercentileCurve[]; log: boolean; height?: number; testId?: string }) {
  const option = useMemo<EChartsOption>(() => {
    const base = baseOption();
    return {
      ...withFormatters(percentileOption({ curves, log }, DARK)),
      tooltip: {
        ...base.tooltip,
        formatter: (params) => percentileTooltip(Array.isArray(params) ? params : [params], percentLabel),
      },
    };
  }, [curves, log]);
  const fullNames = new Map(curves.map((c) => [c.name, c.title ?? c.name]));
  return <EChart option={option} height={height} testId={testId} points={curves.length} fullNames={fullNames} ariaLabel="latency by percentile" png={{ title: TITLE, option: () => withTitle(percentileOption({ curves, log }, LIGHT), TITLE, LIGHT) }} />;
}
