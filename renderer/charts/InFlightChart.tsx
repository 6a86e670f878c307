import { useMemo } from 'react';
import type { EChartsOption } from 'echarts';
import { inFlightOption, withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { EChart } from './EChart';
import { fullNamesOf, type SeriesGroup } from './groups';
import { baseOption } from './theme';
import { withTimeZoom } from './zoom';

const TITLE = 'Requests in flight';

// dashed: open-loop arrivals queued at the client

/** Requests sent and not yet answered at the end of each window (the report's option). */
export function InFlightChart({ groups, version, height = 240, maxSec, servers }: { groups: readonly SeriesGroup[]; version?: number; height?: number; maxSec?: number; servers?: number }) {
  const input = useMemo(() => ({ groups, maxSec, servers }), [groups, version, maxSec, servers]);
  const option = useMemo<EChartsOption>(() => withTimeZoom({ ...inFlightOption(input, DARK), tooltip: { ...baseOption().tooltip, valueFormatter: (v) => `${String(v)} requests` } }), [input]);
  return <EChart option={option} height={height} fullNames={fullNamesOf(groups)} ariaLabel="requests in flight over time" png={{ title: TITLE, option: () => withTitle(inFlightOption(input, LIGHT), TITLE, LIGHT) }} />;
}
