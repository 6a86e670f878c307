import type { LiveWindow, PhaseResult, RunSummary, ServerSample, TargetResult } from '../../contract/results.js';
import type { Evidence, Finding } from '../../contract/diagnosis.js';
import type { PhaseFirstRequests } from '../../contract/first-requests.js';

// What a rule reads: a stored run exactly as the read side gives it back (db/read-run.ts: getRun,
// getWindows and getFirstRequests, read together in engine/export/stored-diagnosis.ts), nothing measured again.

export interface StoredRun {
  run: RunSummary;
  /** every live window of the run's server runs (250 ms each) */
  windows: LiveWindow[];
  samples: ServerSample[];
  /** each phase's users' first requests from the raw rows (`runs:windows`); absent: not read (callers before issue 38's late-admission) */
  firstRequests?: PhaseFirstRequests[];
}

export interface RuleAbout {
  summary: string;
  thresholds: { name: string; value: number; why: string }[];
  blindSpots: string[];
}

/** A rule: a pure function of a stored run; [] when it does not fire. */
export interface DiagnosisRule {
  readonly id: string;
  readonly kind: 'finding' | 'cannot-answer';
  /** for docs/diagnosis.md: what it says, its thresholds with their reason and source, what it cannot see */
  readonly about: RuleAbout;
  check(stored: StoredRun): Finding[];
}

/** One phase of one server run, with its windows and where its evidence comes from. */
export interface PhaseCase {
  target: TargetResult;
  phase: PhaseResult;
  windows: LiveWindow[];
  /** the evidence's place, without figures */
  place: Omit<Evidence, 'figures'>;
}

/** Every phase of every server run, with its own windows. */
export function phaseCases(stored: StoredRun): PhaseCase[] {
  return stored.run.targets.flatMap((target) =>
    target.phases.map((phase) => ({
      target,
      phase,
      windows: stored.windows.filter((w) => w.targetId === target.id && w.phaseIndex === phase.index),
      place: {
        targetId: target.id,
        server: target.name,
        phaseIndex: phase.index,
        phase: phase.name,
        range: phaseRange(phase),
      },
    })),
  );
}

/** A phase's time range; a damaged or endless phase (NaN, Infinity) shrinks to its start, so no finding carries a range the contract refuses. */
function phaseRange(phase: PhaseResult): { fromMs: number; toMs: number } {
  const fromMs = Number.isFinite(phase.startedMs) ? phase.startedMs : 0;
  const toMs = fromMs + phase.durationMs;
  return { fromMs, toMs: Number.isFinite(toMs) ? toMs : fromMs };
}
