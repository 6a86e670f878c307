import { diagnosisList, evidencePlace, figureText, type Diagnosis, type Finding } from '../../contract/diagnosis.js';
import { mdText } from '../../contract/markdown-text.js';

// A run's "What happened" in Markdown (the `--markdown` summary; issue 38): the findings a bullet
// each with evidence, how sure and what next, then what the run cannot answer; or the healthy line.
// A finding names phases and endpoints and may quote a server's reason: every text goes through mdText.

function bullet(f: Finding): string {
  const figures = f.evidence.figures.map(figureText).join(', ');
  const evidence = figures === '' && f.evidence.server === undefined ? '' : ` Evidence: ${mdText(figures === '' ? '-' : figures)} (${mdText(evidencePlace(f.evidence))}).`;
  return `- **${mdText(f.rule)}**: ${mdText(f.text)}.${evidence} Confidence ${mdText(f.confidence)}; next: ${mdText(f.next)}`;
}

/** The section's lines; `runId` heads it when the summary covers several runs. */
export function diagnosisMarkdown(d: Diagnosis, runId: number | null): string[] {
  const list = diagnosisList(d);
  const found = list.filter((f) => f.kind !== 'cannot-answer');
  const cannot = list.filter((f) => f.kind === 'cannot-answer');
  return [
    `#### What happened${runId === null ? '' : ` in run #${runId}`}`,
    '',
    ...found.map(bullet),
    ...(cannot.length === 0 ? [] : ['', '*What this run cannot answer:*', '', ...cannot.map(bullet)]),
  ];
}
