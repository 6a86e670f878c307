import type { DifferenceFinding } from '../../contract/compare-explanation';
import { evidencePlace, figureText } from '../../contract/diagnosis';

// Compare's "What changed" (issue 38): what moved between A and each other run and which part of the
// time moved with it, as the engine explained it (runs:compare's explanation, the CLI's lines). The
// evidence's figures are on hover; what to try next under each line.

export function WhatChanged({ explanation, several }: { explanation: readonly DifferenceFinding[]; several: boolean }) {
  if (explanation.length === 0) return null;
  return (
    <div className="notice what-changed" data-testid="compare-what-changed">
      <strong>What changed</strong>
      <ul className="plain">
        {explanation.map((f, k) => (
          <li key={k} data-rule={f.rule} title={f.evidence.figures.length > 0 ? `${f.evidence.figures.map(figureText).join(', ')}; from ${evidencePlace(f.evidence)}; ${f.confidence} confidence: ${f.wouldChange}` : f.wouldChange}>
            <span className="rule-id">{f.rule}</span> {several ? `run ${f.runId} vs ${f.baselineRunId}: ` : ''}
            {f.text}
            {f.kind === 'finding' && <div className="muted">next: {f.next}</div>}
          </li>
        ))}
      </ul>
    </div>
  );
}
