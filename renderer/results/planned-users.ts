import { plannedUsers, rampValueAt } from '../../contract/phase';
import type { CellInfo } from '../../contract/results';
import { Scenario } from '../../contract/scenario';
import type { RunSeries, TargetSeries } from '../charts/run-data';

// The users a ramping-users phase plans over time, drawn beside requests in flight (issue 36: a ramp
// showed no users at all). The driver reports requests in flight, not users, so the planned line comes
// from the phase's stages (contract/phase.ts plannedUsers), placed at the phase's start as the engine
// reported it and drawn up to the server run's latest window (live: no plan ahead of the run).
// A phase the matrix changes in a cell is left out: the renderer does not expand matrices.
// Beside it, the users the driver had active (started, not finished) at each window's end: in a
// closed loop every user alive either has a request in flight or waits at the client to go on (think
// time, a retry), so a ramp phase's window's inFlight + queued counts them (engine/driver/executors/
// ramping-users: alive = in flight + the group's queue). Stored windows hold both, so a stored run
// shows them as a live one does.

/** [seconds from the server run start, users]; null breaks the line between phases. */
export type UsersPoint = [number, number | null];

function phasesOf(scenario: unknown): Scenario['phases'] | null {
  const parsed = Scenario.safeParse(scenario);
  return parsed.success ? parsed.data.phases : null;
}

/** Whether a cell's matrix values touch phase `index` (then its stages here are not the ones it ran). */
const matrixTouches = (cell: CellInfo | undefined, index: number): boolean =>
  cell !== undefined && Object.keys(cell.params).some((k) => k === 'phases' || k.startsWith(`phases[${index}]`) || k.startsWith('phases[*]'));

function targetUsers(t: TargetSeries, phases: Scenario['phases'], cells: readonly CellInfo[]): UsersPoint[] {
  const endMs = t.windows[t.windows.length - 1]?.tMs;
  if (endMs === undefined) return [];
  const cell = cells.find((c) => c.index === t.cellIndex);
  const out: UsersPoint[] = [];
  for (const mark of t.phases) {
    const phase = phases[mark.phaseIndex];
    const ramp = phase === undefined || matrixTouches(cell, mark.phaseIndex) ? undefined : plannedUsers(phase);
    if (ramp === undefined || mark.tMs > endMs) continue;
    const upTo = endMs - mark.tMs;
    for (const pt of ramp.points) if (pt.atMs <= upTo) out.push([(mark.tMs + pt.atMs) / 1000, pt.value]);
    const lastAt = ramp.points[ramp.points.length - 1]?.atMs ?? 0;
    if (upTo < lastAt) out.push([endMs / 1000, rampValueAt(ramp, upTo)]);
    out.push([(mark.tMs + Math.min(upTo, lastAt)) / 1000, null]);
  }
  return out;
}

/** Each server run's planned users (by its chart group key), for the runs with a ramp of users; empty when none has one. */
export function plannedUsersOf(series: RunSeries, scenario: unknown, cells: readonly CellInfo[]): Map<string, UsersPoint[]> {
  const phases = phasesOf(scenario);
  const out = new Map<string, UsersPoint[]>();
  if (phases === null) return out;
  for (const t of series.targets) {
    const points = targetUsers(t, phases, cells);
    if (points.some(([, v]) => v !== null)) out.set(`${series.runId}:${t.targetId}`, points);
  }
  return out;
}

/** Each server run's active users in its ramping-users phases' windows (by chart group key); empty when none has such a phase. */
export function activeUsersOf(series: RunSeries, scenario: unknown): Map<string, UsersPoint[]> {
  const phases = phasesOf(scenario);
  const out = new Map<string, UsersPoint[]>();
  if (phases === null) return out;
  const isRamp = phases.map((p) => plannedUsers(p) !== undefined);
  for (const t of series.targets) {
    const points: UsersPoint[] = [];
    let last: number | null = null;
    for (const w of t.windows) {
      const ramp = w.phaseIndex !== null && isRamp[w.phaseIndex] === true;
      // a break between ramp phases (or after one), so no line crosses a phase of another kind
      if (ramp) points.push([w.tMs / 1000, w.inFlight + w.queued]);
      else if (last !== null) points.push([last / 1000, null]);
      last = ramp ? w.tMs : null;
    }
    if (points.length > 0) out.set(`${series.runId}:${t.targetId}`, points);
  }
  return out;
}
