import { diagnosisList, evidencePlace, figureText, type Diagnosis, type Finding } from '../../contract/diagnosis.js';
import { terminalSafeInline } from './terminal-safe.js';

// A run's diagnosis in the terminal: `run` and `show` print the top findings a line each, `show --why`
// every finding with its evidence. A finding's text can quote a server's error reason: made safe.

/** Findings printed without --why. */
export const TOP_FINDINGS = 3;

const mark = (f: Finding) => (f.kind === 'cannot-answer' ? 'cannot answer' : f.kind === 'healthy' ? 'healthy' : f.rule);

function line(f: Finding): string {
  const place = f.evidence.figures.length > 0 || f.evidence.server !== undefined ? ` (${evidencePlace(f.evidence)})` : '';
  return terminalSafeInline(`  - [${mark(f)}] ${f.text}${place}`);
}

/** The top findings, a line each, and how to see the rest. */
export function formatDiagnosisTop(runId: number, d: Diagnosis): string {
  const list = diagnosisList(d);
  const shown = list.slice(0, TOP_FINDINGS);
  const more = list.length - shown.length;
  return ['What happened:', ...shown.map(line), ...(more > 0 ? [`  (${more} more, and the evidence: \`loadscope show ${runId} --why\`)`] : [`  (the evidence: \`loadscope show ${runId} --why\`)`])].join('\n');
}

/** Every finding with its evidence, how sure it is and what to try next. */
export function formatDiagnosisWhy(d: Diagnosis): string {
  const blocks = diagnosisList(d).map((f) => [
    line(f),
    ...(f.evidence.figures.length > 0 ? [terminalSafeInline(`      evidence: ${f.evidence.figures.map(figureText).join(', ')}; from ${evidencePlace(f.evidence)}`)] : []),
    terminalSafeInline(`      confidence: ${f.confidence}; would change it: ${f.wouldChange}`),
    terminalSafeInline(`      next: ${f.next}`),
  ].join('\n'));
  return ['What happened, and why:', ...blocks].join('\n');
}

/** `--json`'s "diagnosis": the one list (healthy line, findings, what it cannot answer). */
export function diagnosisJson(d: Diagnosis): Finding[] {
  return diagnosisList(d);
}
