import { phaseRamp, rampValueAt, type PhaseBase, type PhaseRamp } from '../../contract/phase.js';
import type { RunSummary } from '../../contract/results.js';

// The load a phase offered at each moment, for phases whose load changes by design (a rate with
// rampTo, ramping-users): Compare pairs such phases' stored blocks by this level rather than by
// time, so a ramp is compared with itself at equal load. Read from the scenario as run: its phase,
// with the server run's matrix cell applied where the cell sets a field of that phase.

export interface OfferedLoad {
  unit: PhaseRamp['unit'];
  /** the level (req/s or users, all client groups) at a time in ms from the server run start */
  at(ms: number): number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const CELL_FIELD = /^phases\[(\d+|\*)\]\.([A-Za-z_$][\w$]*)$/;

/** The phase as its server run ran it: the scenario's, with its cell's `phases[i].field` values. */
function phaseAsRun(run: Pick<RunSummary, 'scenario' | 'cells'>, cellIndex: number, phaseIndex: number): PhaseBase | null {
  const phases = isRecord(run.scenario) ? run.scenario.phases : undefined;
  const own = Array.isArray(phases) ? (phases[phaseIndex] as unknown) : undefined;
  if (!isRecord(own)) return null;
  const phase: Record<string, unknown> = { ...own };
  for (const [path, value] of Object.entries(run.cells.find((c) => c.index === cellIndex)?.params ?? {})) {
    const m = CELL_FIELD.exec(path);
    if (m && (m[1] === '*' || Number(m[1]) === phaseIndex)) phase[m[2]!] = value;
  }
  return typeof phase.executor === 'string' && typeof phase.clients === 'number' ? (phase as unknown as PhaseBase) : null;
}

/** The offered load over a stored phase when it changes by design; null for a constant load (or one not known). */
export function offeredLoad(run: Pick<RunSummary, 'scenario' | 'cells' | 'targets'>, targetId: number, phaseIndex: number): OfferedLoad | null {
  const target = run.targets.find((t) => t.id === targetId);
  const stored = target?.phases.find((p) => p.index === phaseIndex);
  if (!target || !stored) return null;
  const phase = phaseAsRun(run, target.cellIndex, phaseIndex);
  let ramp: PhaseRamp | undefined;
  try {
    ramp = phase === null ? undefined : phaseRamp(phase);
  } catch {
    return null; // an executor this build does not know: compared as a whole phase
  }
  if (!ramp || phase === null || ramp.points.every((p) => p.value === ramp.points[0]!.value)) return null;
  const { clients } = phase;
  const r = ramp;
  return { unit: r.unit, at: (ms) => rampValueAt(r, ms - stored.startedMs) * clients };
}
