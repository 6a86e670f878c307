import { evidencePlace, type Finding } from '../../contract/diagnosis.js';
import type { RunReport } from '../../contract/report/run-report.js';

// The PNG's "What happened" (issue 38): a short block in its header, as `show` prints it: the top
// findings a line each (the healthy line when none), and where the rest and their evidence are.
// The PNG draws text, so a name's markup is only characters; line breaks are wrapped away by wrapText.

/** Findings the page shows (the HTML report has them all). */
export const PNG_FINDINGS = 3;

export interface PngDiagnosis {
  items: { text: string; kind: Finding['kind'] }[];
  /** how many more, and where; null when all are shown */
  more: string | null;
}

export function pngDiagnosis(report: Pick<RunReport, 'findings' | 'runId'>): PngDiagnosis | null {
  if (report.findings === null) return null;
  const shown = report.findings.slice(0, PNG_FINDINGS);
  const rest = report.findings.length - shown.length;
  return {
    items: shown.map((f) => {
      const place = f.evidence.figures.length > 0 || f.evidence.server !== undefined ? ` (${evidencePlace(f.evidence)})` : '';
      return { text: `${f.kind === 'cannot-answer' ? 'cannot answer' : f.rule}: ${f.text}${place}`, kind: f.kind };
    }),
    more: rest > 0 ? `${rest} more, with their evidence, in the HTML report and \`loadscope show ${report.runId} --why\`` : null,
  };
}
