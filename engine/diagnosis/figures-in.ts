import type { PhaseFigure } from '../../contract/engine-figures.js';
import { errorRate, errorTotal, figureOf, type FigurePhase, type FigureStat } from '../../contract/figures.js';
import type { RunEngine } from '../../contract/results.js';

// The diagnosis reads a phase's named figures here and nowhere else: through the one owner of named
// figures (contract/figures.ts figureOf), which says what an engine did not measure (k6's lag, wait
// and processing without Server-Timing) as null, never as 0.

export type { FigureStat };
export { errorRate, errorTotal };

/** A phase's (or one of its endpoints') figure, e.g. figureIn('native', phase, 'lag', 'p99'); null where it was not measured. */
export function figureIn(engine: RunEngine, phase: FigurePhase, figure: PhaseFigure, stat: FigureStat): number | null {
  return figureOf(phase, `${figure}.${stat}`, engine);
}
