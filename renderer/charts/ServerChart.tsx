import { useMemo } from 'react';
import type { EChartsOption, LineSeriesOption } from 'echarts';
import { serverOption, withTitle, type ServerMetric } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { withEvidenceArea, type EvidenceArea } from './evidence-area';
import { drawnDataOf, fullNamesOf, type SeriesGroup } from './groups';
import { baseOption, sig3 } from './theme';
import { withTimeZoom } from './zoom';

export type { ServerMetric } from '../../contract/report/chart-options';

/**
 * The target's process tree as the supervisor samples it: CPU % (100 = one core), or RSS (MB) with
 * the process count on a second axis, where seed 000's auto-scaling pool shows as steps.
 */
export function ServerChart({ groups, metric, version, height = 240, maxSec, servers, area }: { groups: readonly SeriesGroup[]; metric: ServerMetric; /** moves when the data changed (the arrays are appended in place) */ version?: number | string; height?: number; maxSec?: number; servers?: number; /** a finding's evidence range, shaded and named */ area?: EvidenceArea | null }) {
  const input = useMemo(() => ({ groups, metric, maxSec, servers }), [groups, metric, version, maxSec, servers]);
  const option = useMemo<EChartsOption>(() => {
    const o = withEvidenceArea(serverOption(input, DARK), area);
    const base = baseOption();
    if (metric === 'cpu') return withTimeZoom({ ...o, tooltip: { ...base.tooltip, valueFormatter: (v) => `${sig3(v)} %` } });
    // RSS in MB, processes as a count; the processes axis leaves headroom above the highest step
    const series = (o.series as LineSeriesOption[]).map((s) => ({ ...s, tooltip: { valueFormatter: String(s.id).endsWith('|rss') ? (v: unknown) => `${sig3(v)} MB` : (v: unknown) => `${String(v)} processes` } }));
    const [rss, procs] = o.yAxis as object[];
    return withTimeZoom({ ...o, series, yAxis: [rss!, { ...procs, max: (e: { max: number }) => Math.max(2, Math.ceil(e.max * 1.25)) }] } as EChartsOption);
  }, [input, area]);
  const dataKey = useMemo(() => drawnDataOf(input.groups, 'samples', input.maxSec), [input]);
  const title = metric === 'cpu' ? 'Server CPU' : 'Server memory and processes';
  return <EChart option={option} dataKey={dataKey} height={height} fullNames={fullNamesOf(groups)} ariaLabel={metric === 'cpu' ? 'server CPU over time' : 'server memory and processes over time'} png={{ title, option: () => withTitle(serverOption(input, LIGHT), title, LIGHT) }} />;
}
