import { useMemo, useState } from 'react';
import type { EChartsOption } from 'echarts';
import { bucketLabel, latencyHeatmap, latencyHeatmapOption } from '../../contract/report/latency-heatmap';
import { withTitle } from '../../contract/report/chart-options';
import { DARK, LIGHT } from '../../contract/report/palette';
import { count } from '../ui/format';
import { EChart } from './EChart';
import type { SeriesGroup } from './groups';
import { escapeHtml } from '../../contract/html-text';
import { withTooltipFormatter } from './tooltip-html';

const TITLE = 'Latency heatmap';

/** One server run's requests by time and total-time bucket (the report's option), from its stored windows. */
export function LatencyHeatmapChart({ groups, version, height = 300, testId, thinned = false }: { groups: readonly SeriesGroup[]; version?: number; height?: number; testId?: string; /** the windows given are a thinned series: say the counts are partial */ thinned?: boolean }) {
  const [chosen, setChosen] = useState(0);
  const group = groups[Math.min(chosen, groups.length - 1)];
  // version: the windows arrays are mutated in place by the live store
  const heatmap = useMemo(() => latencyHeatmap(group?.windows ?? []), [group, version]);
  const option = useMemo<EChartsOption>(
    () =>
      withTooltipFormatter(latencyHeatmapOption(heatmap, DARK), (p) => {
        const [c, r, n] = (p as { data: [number, number, number] }).data;
        return `${heatmap.times[c]} s · ${escapeHtml(bucketLabel(heatmap.buckets[r]!))} ms<br>${count(n)} requests`;
      }),
    [heatmap],
  );
  const title = group === undefined ? TITLE : `${TITLE}: ${group.name}`;
  return (
    <div data-testid={testId === undefined ? undefined : `${testId}-box`} data-requests={heatmap.requests} data-cells={heatmap.cells.length} data-buckets={heatmap.buckets.length}>
      {groups.length > 1 && (
        <label className="chart-note">
          server run{' '}
          <select aria-label="heatmap server run" value={Math.min(chosen, groups.length - 1)} onChange={(e) => setChosen(Number(e.target.value))}>
            {groups.map((g, i) => (
              <option key={g.key} value={i} title={g.title}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <EChart option={option} height={height} testId={testId} ariaLabel="latency heatmap: time across, total time up, requests as colour" png={{ title, option: () => withTitle(latencyHeatmapOption(heatmap, LIGHT), title, LIGHT) }} />
      <div className="chart-note" data-testid="heatmap-note">
        {heatmap.requests === 0
          ? heatmap.windowsWithout > 0
            ? 'this run was stored before windows kept latency buckets: no heatmap'
            : 'no requests to draw yet'
          : `${count(heatmap.requests)} requests from ${count(heatmap.times.length)} columns of ${thinned ? 'the windows kept on screen (older ones thinned: open the run from History for all)' : 'stored windows'}; colour: requests per cell; rows: total time from the lower edge, four per doubling`}
      </div>
    </div>
  );
}
