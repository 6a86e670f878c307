import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { inFlightOption, withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { withEvidenceArea, type EvidenceArea } from './evidence-area';
import { drawnDataOf, fullNamesOf, type SeriesGroup } from './groups';
import { baseOption } from './theme';
import { withTimeZoom } from './zoom';

const TITLE = 'Requests in flight';

// dashed: arrivals or users waiting at the client; dotted: a ramp's users as planned; dash-dot: its users active

/** Requests sent and not yet answered at the end of each window (the report's option). */
export function InFlightChart({ groups, version, height = 240, maxSec, servers, plannedUsers, activeUsers, area }: { groups: readonly SeriesGroup[]; /** moves when the data changed (the arrays are appended in place) */ version?: number | string; height?: number; maxSec?: number; servers?: number; /** a ramp's planned users by group key (renderer/results/planned-users.ts) */ plannedUsers?: ReadonlyMap<string, readonly [number, number | null][]>; /** a ramp's active users by group key (the same file) */ activeUsers?: ReadonlyMap<string, readonly [number, number | null][]>; /** a finding's evidence range, shaded and named */ area?: EvidenceArea | null }) {
  const input = useMemo(() => ({ groups, maxSec, servers, plannedUsers, activeUsers }), [groups, version, maxSec, servers, plannedUsers, activeUsers]);
  const option = useMemo<EChartsOption>(() => withTimeZoom({ ...withEvidenceArea(inFlightOption(input, DARK), area), tooltip: { ...baseOption().tooltip, valueFormatter: (v) => (typeof v === 'number' ? String(Math.round(v * 10) / 10) : '-') } }), [input, area]);
  const dataKey = useMemo(() => drawnDataOf(input.groups, 'windows', input.maxSec), [input]);
  return <EChart option={option} dataKey={dataKey} height={height} fullNames={fullNamesOf(groups)} ariaLabel="requests in flight over time" png={{ title: TITLE, option: () => withTitle(inFlightOption(input, LIGHT), TITLE, LIGHT) }} />;
}
