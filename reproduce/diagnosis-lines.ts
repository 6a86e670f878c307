import { diagnosisList, evidencePlace, type Diagnosis, type Finding } from '../contract/diagnosis.js';
import { mdText } from '../contract/markdown-text.js';
import { WRITEUP_CONCLUSIONS } from './writeup-conclusions.js';

// A scenario's section in docs/reproductions.md: the write-up's own conclusion, then Loadscope's
// diagnosis of the stored run (issue 38), its top findings a line each, so a reader sees whether
// the run explains itself the way the write-up does. A finding may quote a server's reason: mdText.

/** Findings a section shows (all of them: `loadscope show RUN --why`). */
const TOP = 3;

const placed = (f: Finding) => (f.evidence.server === undefined && f.evidence.phase === undefined ? '' : ` (${mdText(evidencePlace(f.evidence))})`);

export function conclusionLines(scenarioName: string, runId: number, diagnosis: Diagnosis | undefined): string[] {
  const concludes = WRITEUP_CONCLUSIONS[scenarioName];
  const lines = ['', `The write-up concludes: ${concludes ?? '(no one-line conclusion transcribed)'}.`];
  if (diagnosis === undefined) return lines;
  const list = diagnosisList(diagnosis);
  const findings = list.filter((f) => f.kind !== 'cannot-answer').slice(0, TOP);
  const cannot = list.filter((f) => f.kind === 'cannot-answer').map((f) => f.rule);
  // a rule that cannot answer for several phases, named once with how many
  const cannotText = [...new Set(cannot)].map((rule) => {
    const n = cannot.filter((r) => r === rule).length;
    return `${mdText(rule)}${n > 1 ? ` (${n}x)` : ''}`;
  });
  lines.push('', "Loadscope's diagnosis:", '', ...findings.map((f) => `- **${mdText(f.rule)}**: ${mdText(f.text)}${placed(f)}`));
  const more = list.length - findings.length - cannot.length;
  if (more > 0) lines.push(`- and ${more} more finding(s): \`npx loadscope show ${runId} --why\``);
  if (cannot.length > 0) lines.push(`- cannot answer: ${cannotText.join(', ')}`);
  return lines;
}
