import { phaseFigures, type PhaseFigure } from '../../contract/engine-figures.js';
import type { LatencyStats, PhaseResult, RunEngine } from '../../contract/results.js';

// The diagnosis reads a phase's named figures here and nowhere else, so switching to the one owner
// of named figures (contract/figures.ts figureOf, being written) is a change to this file only.
// Until then: contract/engine-figures.ts phaseFigures, which already says what an engine did not
// measure (k6's lag, wait and processing without Server-Timing) as null, never as 0.

export type FigureStat = Exclude<keyof LatencyStats, 'count'>;

/** A phase's figure, e.g. figureIn('native', phase, 'lag', 'p99'); null where it was not measured. */
export function figureIn(engine: RunEngine, phase: PhaseResult, figure: PhaseFigure, stat: FigureStat): number | null {
  const stats = phaseFigures(engine, phase).stats[figure];
  if (stats === null) return null;
  const value = stats[stat];
  return Number.isFinite(value) ? value : null;
}
