import { cellTitle } from '../../contract/cells';
import type { EventPayload } from '../../contract/api';
import { errorTotal } from '../../contract/figures';
import type { LiveWindow, RunSummary, ServerSample } from '../../contract/results';

// The over-time data of one run, per server run (target), as the charts draw it. Built live from
// events (live-run-store.ts) or at once from a stored run (fromStored). Times are ms from the
// target's own start, so the targets of a run overlay on one time axis.

/** Points kept per series: 2,400 windows = 10 min at 250 ms; beyond that the older points thin out. */
export const MAX_POINTS = 2400;

export interface PhaseMark {
  phaseIndex: number;
  name: string;
  tMs: number;
}

export type TargetState = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled' | 'skipped';

export interface TargetSeries {
  targetId: number;
  label: string;
  /** the name in full, the matrix cell as key=value (hover; contract/cells.ts cellTitle) */
  title?: string;
  /** its matrix cell (for the phases as planned); unknown until the engine names it */
  cellIndex?: number;
  /** 'external' or a bundled one; unknown until the engine names it */
  architecture?: string;
  state: TargetState;
  reason: string | null;
  windows: LiveWindow[];
  samples: ServerSample[];
  phases: PhaseMark[];
  /** 1 = every window kept; 2, 4, ... = every 2nd, 4th ... of the older windows kept. */
  thinning: number;
}

export interface RunSeries {
  runId: number;
  targets: TargetSeries[];
}

/**
 * The versions of a series' parts, each moving when that part changed: a chart redraws on the parts
 * it draws. `targets`: server runs added, renamed or given a phase (every chart); `windows`: a
 * window appended (latency, throughput, in flight); `samples`: a server sample appended (CPU, memory).
 */
export interface SeriesVersions {
  targets: number;
  windows: number;
  samples: number;
}

/**
 * A part of a live series in short: per server run, its points and its newest point's time. Points are
 * only appended (thinning keeps the newest), so an append changes it and an equal stamp holds the same
 * points. Read when a chart is given new data, it says what is in the arrays then, even what arrived
 * after the store's version was read.
 */
export function stampOf(series: RunSeries, part: 'windows' | 'samples'): string {
  return series.targets.map((t) => `${t[part].length}@${t[part].at(-1)?.tMs ?? ''}`).join(' ');
}

export function emptyTarget(targetId: number, label: string): TargetSeries {
  return { targetId, label, state: 'pending', reason: null, windows: [], samples: [], phases: [], thinning: 1 };
}

/**
 * Appends and keeps the list under `cap` by dropping every other point once it is full: the
 * resolution of what is already drawn halves, new points arrive at full rate. Returns the factor
 * by which the list was thinned (1 when nothing was dropped).
 */
export function appendCapped<T>(list: T[], item: T, cap: number = MAX_POINTS): number {
  list.push(item);
  if (list.length <= cap) return 1;
  // every other point, counted back from the newest: the point just appended is always kept
  let w = 0;
  for (let r = (list.length - 1) % 2; r < list.length; r += 2) list[w++] = list[r]!;
  list.length = w;
  return 2;
}

/** Thins a stored list to at most `cap` points evenly (the last point is always kept). */
export function thinTo<T>(list: readonly T[], cap: number = MAX_POINTS): { items: T[]; factor: number } {
  if (list.length <= cap) return { items: [...list], factor: 1 };
  const factor = Math.ceil(list.length / cap);
  const items: T[] = [];
  for (let i = (list.length - 1) % factor; i < list.length; i += factor) items.push(list[i]!);
  return { items, factor };
}

export function errorsIn(window: LiveWindow): number {
  return errorTotal(window.errors);
}

export function phaseMarkFromEvent(e: EventPayload<'run:phase'>): PhaseMark {
  return { phaseIndex: e.phaseIndex, name: e.name, tMs: e.tMs };
}

/** A stored run's over-time data, in the same shape the live view builds. */
export function fromStored(summary: RunSummary, windows: readonly LiveWindow[], samples: readonly ServerSample[]): RunSeries {
  const targets = summary.targets.map((t) => {
    const w = thinTo(windows.filter((x) => x.targetId === t.id));
    const s = thinTo(samples.filter((x) => x.targetId === t.id));
    return {
      targetId: t.id,
      label: t.name,
      title: cellTitle(t.label, summary.cells, t.cellIndex),
      cellIndex: t.cellIndex,
      architecture: t.architecture,
      state: t.status,
      reason: t.reason,
      windows: w.items,
      samples: s.items,
      phases: t.phases.map((p) => ({ phaseIndex: p.index, name: p.name, tMs: p.startedMs })),
      thinning: Math.max(w.factor, s.factor),
    };
  });
  return { runId: summary.id, targets };
}
