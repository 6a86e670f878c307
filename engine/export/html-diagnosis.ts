import { evidencePlace, figureText, type Finding } from '../../contract/diagnosis.js';
import { escapeHtml as esc } from '../../contract/html-text.js';
import type { RunReport } from '../../contract/report/run-report.js';

// The HTML report's "What happened" (issue 38): the run's findings in the rules' order, each with its
// evidence (figures and where they come from), how sure and what to try next; then what the run
// cannot answer; or the healthy line. A finding's text names phases and endpoints, and may quote a
// server's error reason: all of it escaped (contract/html-text.ts).

export const DIAGNOSIS_STYLE = 'section.diagnosis li{margin:4px 0 10px;max-width:120ch} section.diagnosis .rule{font-family:ui-monospace,monospace;font-size:12px;color:#57606a} section.diagnosis .evidence,section.diagnosis .next{display:block;font-size:13px;color:#57606a}';

function item(f: Finding): string {
  const figures = f.evidence.figures.map(figureText).join(', ');
  const evidence = figures === '' && f.evidence.server === undefined ? '' : `<span class="evidence">evidence: ${esc(figures === '' ? '-' : figures)}; from ${esc(evidencePlace(f.evidence))}</span>`;
  return `<li data-rule="${esc(f.rule)}" data-kind="${esc(f.kind)}" data-confidence="${esc(f.confidence)}"><span class="rule">${esc(f.rule)}</span> ${esc(f.text)}${evidence}<span class="next">confidence ${esc(f.confidence)} (would change it: ${esc(f.wouldChange)}); next: ${esc(f.next)}</span></li>`;
}

/** The section; nothing when the report was made without a diagnosis. */
export function diagnosisBlock(report: Pick<RunReport, 'findings'>): string {
  if (report.findings === null) return '';
  const found = report.findings.filter((f) => f.kind !== 'cannot-answer');
  const cannot = report.findings.filter((f) => f.kind === 'cannot-answer');
  const healthy = found.some((f) => f.kind === 'healthy');
  return `<section class="diagnosis" data-diagnosis data-healthy="${healthy}"><h2>What happened</h2>
<ol class="findings">${found.map(item).join('')}</ol>
${cannot.length === 0 ? '' : `<h3>What this run cannot answer</h3><ul class="cannot-answer">${cannot.map(item).join('')}</ul>`}</section>`;
}
