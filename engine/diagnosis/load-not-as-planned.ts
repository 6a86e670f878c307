import type { Finding } from '../../contract/diagnosis.js';
import { expectedRequests, isOpenLoop, plannedMs, type PhaseBase } from '../../contract/phase.js';
import type { RunSummary } from '../../contract/results.js';
import { storedPhasePlan } from '../../contract/stored-phase.js';
import { phaseCases, type DiagnosisRule } from './stored-run.js';

// The load that ran was not the load planned: fewer requests than the phase asks for (arrivals not
// sent, users not started, a phase cut short), or an open loop whose achieved rate fell below its
// planned rate (the arrivals queued and drained late). What was planned is contract/phase.ts's
// (expectedRequests, plannedMs) for the phase as stored with the run.

/** Achieved over planned at or below which the load was not as planned: a tenth off is more than a phase's rounding and its last requests' drain. */
export const AS_PLANNED = 0.9;

/**
 * The stored scenario's phase at `index`, when the run's cells all ran it alike (a matrix over
 * phases: unknown), read without the scenario schema (contract/stored-phase.ts).
 */
export function plannedPhase(run: RunSummary, index: number): PhaseBase | null {
  if (run.cells.some((c) => Object.keys(c.params).some((k) => k.startsWith('phases')))) return null;
  const phases = (run.scenario as { phases?: unknown } | null)?.phases;
  return Array.isArray(phases) ? storedPhasePlan(phases[index]) : null;
}

export const loadNotAsPlanned: DiagnosisRule = {
  id: 'load-not-as-planned',
  kind: 'finding',
  about: {
    summary: 'fewer requests than the phase plans, or an open loop completing well below its planned rate',
    thresholds: [{ name: 'AS_PLANNED', value: AS_PLANNED, why: "made / planned requests, or completed / planned rate, at or below it: a tenth off is more than rounding and the last requests' drain" }],
    blindSpots: ['a matrix over phases (cells with their own phase fields): the plan per cell is not read, silent', 'timed closed phases and ramping users plan no count (contract/phase.ts): silent'],
  },
  check(stored) {
    const { run } = stored;
    return phaseCases(stored).flatMap(({ phase, place }): Finding[] => {
      const planned = plannedPhase(run, phase.index);
      const expected = planned === null ? null : expectedRequests(planned);
      if (planned === null || expected === null || expected === 0) return [];
      const sent = phase.count / expected;
      const ms = plannedMs(planned);
      const plannedRate = isOpenLoop(planned) && ms !== null && ms > 0 ? (expected * 1000) / ms : null;
      const achieved = plannedRate === null ? null : phase.throughput / plannedRate;
      if (sent > AS_PLANNED && (achieved === null || achieved > AS_PLANNED)) return [];
      const text = sent <= AS_PLANNED
        ? `the load was not as planned: ${phase.count} of the ${expected} planned requests were made (${Math.round(sent * 100)} %)`
        : `the load was not as planned: ${phase.throughput.toFixed(1)} req/s completed against ${plannedRate!.toFixed(1)} planned (${Math.round(achieved! * 100)} %): arrivals waited and drained late`;
      return [{
        rule: 'load-not-as-planned',
        kind: 'finding',
        text,
        evidence: { ...place, figures: [
          { name: 'requests made', value: phase.count, unit: 'requests' },
          { name: 'requests planned', value: expected, unit: 'requests' },
          ...(plannedRate === null ? [] : [{ name: 'throughput', value: phase.throughput, unit: 'req/s' }, { name: 'planned rate', value: plannedRate, unit: 'req/s' }]),
        ] },
        confidence: 'high',
        wouldChange: 'nothing in this run: the figures are counts; the findings beside it say why (client queue, server queue, errors)',
        next: "read the findings beside it for the limit; figures of a load that was not as planned do not describe the planned load",
      }];
    });
  },
};
