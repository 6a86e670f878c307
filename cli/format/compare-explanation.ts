import type { DifferenceFinding } from '../../contract/compare-explanation.js';
import { terminalSafeInline } from './terminal-safe.js';

// What moved between compared runs (engine/compare/explain-difference.ts), in the terminal: under
// `compare`'s tables and after `run --baseline`'s verdict. A line a move, its next step beneath;
// server, phase and endpoint names are the user's text: made safe.

/** Moves printed; the rest are in --json. */
export const SHOWN_MOVES = 5;

export function formatExplanation(explanation: readonly DifferenceFinding[]): string[] {
  if (explanation.length === 0) return [];
  // with more than two runs each line says which run it compares
  const several = new Set(explanation.map((f) => f.runId)).size > 1;
  const shown = explanation.slice(0, SHOWN_MOVES);
  const lines = shown.flatMap((f) => [
    terminalSafeInline(`  - [${f.rule}] ${several ? `run ${f.runId} vs ${f.baselineRunId}: ` : ''}${f.text}`),
    ...(f.kind === 'finding' ? [terminalSafeInline(`      next: ${f.next}`)] : []),
  ]);
  const more = explanation.length - shown.length;
  return ['What changed:', ...lines, ...(more > 0 ? [`  (${more} more in --json's "explanation")`] : [])];
}
