import { errorTotal } from '../figures.js';
import type { LiveWindow, ServerSample } from '../results.js';

// The over-time data of a chart: one group per server run (a run's target), with its 250 ms windows,
// its server samples and where its phases began. The UI builds groups live or from a stored run; the
// report builds them from the store. Times are ms from the server run's own start.

export interface PhaseMark {
  phaseIndex: number;
  name: string;
  tMs: number;
}

export interface SeriesGroup {
  key: string;
  name: string;
  /** the name in full where the name is short (a matrix cell as key=value): a legend entry's hover */
  title?: string;
  color: string;
  windows: readonly LiveWindow[];
  samples: readonly ServerSample[];
  phases: readonly PhaseMark[];
}

export const seconds = (ms: number): number => Math.round(ms) / 1000;

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
    const errors = errorTotal(w.errors);
    const dt = w.tMs - prev > 0 && prev > 0 ? w.tMs - prev : 250;
    out.push([seconds(w.tMs), errors / (dt / 1000)]);
    prev = w.tMs;
  }
  return out;
}
