import { phaseMarkLine as markLine } from '../../contract/report/chart-options';
import { DARK } from '../../contract/report/palette';
import type { SeriesGroup } from '../../contract/report/series';
import type { RunSeries } from './run-data';
import { colorAt } from './theme';

export { errorsPerSecond, pointsIn, seconds, timeExtentSec, type SeriesGroup } from '../../contract/report/series';

export function groupsOf(series: RunSeries, prefix = '', colorOffset = 0): SeriesGroup[] {
  return series.targets.map((t, i) => ({
    key: `${series.runId}:${t.targetId}`,
    name: prefix === '' ? t.label : `${prefix} ${t.label}`,
    title: t.title === undefined ? undefined : prefix === '' ? t.title : `${prefix} ${t.title}`,
    color: colorAt(colorOffset + i),
    windows: t.windows,
    samples: t.samples,
    phases: t.phases,
  }));
}

/** Each legend name's full name (a server run's cell as key=value), for the legend's hover. */
export function fullNamesOf(groups: readonly Pick<SeriesGroup, 'name' | 'title'>[]): Map<string, string> {
  return new Map(groups.map((g) => [g.name, g.title ?? g.name]));
}

/** The phase starts as vertical dashed lines, labelled once even where several servers share them. */
export const phaseMarkLine = (groups: readonly SeriesGroup[]) => markLine(groups, DARK);

/**
 * A time chart's data in short: its points (windows or server samples), phase marks, server runs and
 * time axis end. Two draws with one key showed the same data (EChart's data-drawn).
 */
export function drawnDataOf(groups: readonly SeriesGroup[], points: 'windows' | 'samples', maxSec: number | undefined): string {
  let n = 0;
  let phases = 0;
  for (const g of groups) {
    n += g[points].length;
    phases += g.phases.length;
  }
  return `${n} ${points}, ${phases} phases, ${groups.length} server runs, axis to ${maxSec ?? 'auto'} s`;
}
