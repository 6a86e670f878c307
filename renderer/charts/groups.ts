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

/**
 * The common end of the time axis for every over-time chart of a view, in seconds: the latest window
 * or sample of any group, rounded up to a tick-friendly value. Without it each chart scales to its own
 * data, and charts stacked under one another disagree on where "2 s" is.
 */
export function timeExtentSec(groups: readonly SeriesGroup[]): number | undefined {
  let maxMs = 0;
  for (const g of groups) maxMs = Math.max(maxMs, g.windows.at(-1)?.tMs ?? 0, g.samples.at(-1)?.tMs ?? 0);
  if (maxMs <= 0) return undefined;
  const sec = maxMs / 1000;
  const step = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600].find((s) => sec / s <= 10) ?? 3600;
  return Math.ceil(sec / step - 1e-9) * step;
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
