import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { throughputOption, withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { withEvidenceArea, type EvidenceArea } from './evidence-area';
import { drawnDataOf, fullNamesOf, type SeriesGroup } from './groups';
import { baseOption, sig3 } from './theme';
import { withTimeZoom } from './zoom';

const TITLE = 'Throughput and errors';

/** Completed requests per second and errors per second, per 250 ms window (the report's option). */
export function ThroughputChart({ groups, version, height = 240, testId, maxSec, servers, area }: { groups: readonly SeriesGroup[]; /** moves when the data changed (the arrays are appended in place) */ version?: number | string; height?: number; testId?: string; maxSec?: number; servers?: number; /** a finding's evidence range, shaded and named */ area?: EvidenceArea | null }) {
  // version: the windows arrays are mutated in place by the live store
  const input = useMemo(() => ({ groups, maxSec, servers }), [groups, version, maxSec, servers]);
  const option = useMemo<EChartsOption>(() => withTimeZoom({ ...withEvidenceArea(throughputOption(input, DARK), area), tooltip: { ...baseOption().tooltip, valueFormatter: (v) => `${sig3(v)} req/s` } }), [input, area]);
  const dataKey = useMemo(() => drawnDataOf(input.groups, 'windows', input.maxSec), [input]);
  return <EChart option={option} dataKey={dataKey} height={height} testId={testId} fullNames={fullNamesOf(groups)} ariaLabel="throughput and errors over time" png={{ title: TITLE, option: () => withTitle(throughputOption(input, LIGHT), TITLE, LIGHT) }} />;
}
