import type { LiveWindow, ServerSample } from '../../contract/results';
import type { PhaseMark, RunSeries } from '../run/run-data';
import { colorAt, ERROR_COLOR } from './theme';

/** One line (or set of lines) in an over-time chart: a server run of a run. */
export interface SeriesGroup {
  key: string;
  name: string;
  color: string;
  windows: readonly LiveWindow[];
  samples: readonly ServerSample[];
  phases: readonly PhaseMark[];
}

export function groupsOf(series: RunSeries, prefix = '', colorOffset = 0): SeriesGroup[] {
  return series.targets.map((t, i) => ({
    key: `${series.runId}:${t.targetId}`,
    name: prefix === '' ? t.label : `${prefix} ${t.label}`,
    color: colorAt(colorOffset + i),
    windows: t.windows,
    samples: t.samples,
    phases: t.phases,
  }));
}

export const seconds = (ms: number): number => Math.round(ms) / 1000;

/** The phase starts as vertical dashed lines, labelled once even where several servers share them. */
export function phaseMarkLine(groups: readonly SeriesGroup[]) {
  const seen: number[] = [];
  const data: { xAxis: number; name: string }[] = [];
  for (const g of groups) {
    for (const p of g.phases) {
      if (seen.some((t) => Math.abs(t - p.tMs) < 150)) continue;
      seen.push(p.tMs);
      data.push({ xAxis: seconds(p.tMs), name: p.name });
    }
  }
  return {
    symbol: 'none',
    silent: true,
    animation: false,
    lineStyle: { color: '#8b95a7', type: 'dashed' as const, width: 1, opacity: 0.7 },
    // left-aligned from the line's top, so a phase starting at 0 s clears the y axis' top label
    label: { formatter: '{b}', color: '#aab3c2', fontSize: 11, position: 'end' as const, distance: 4, align: 'left' as const, padding: [0, 0, 0, 4] },
    data,
  };
}

export function pointsIn(groups: readonly SeriesGroup[]): number {
  return groups.reduce((n, g) => n + g.windows.length, 0);
}

export function errorsPerSecond(windows: readonly LiveWindow[]): [number, number][] {
  const out: [number, number][] = [];
  let prev = 0;
  for (const w of windows) {
    let errors = 0;
    for (const v of Object.values(w.errors)) errors += v ?? 0;
    const dt = w.tMs - prev > 0 && prev > 0 ? w.tMs - prev : 250;
    out.push([seconds(w.tMs), errors / (dt / 1000)]);
    prev = w.tMs;
  }
  return out;
}

export const errorColor = ERROR_COLOR;
