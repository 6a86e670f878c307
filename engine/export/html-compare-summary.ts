import { intervalWords } from '../../contract/compare.js';
import { SUMMARY_COLUMNS } from '../../contract/compare-summary.js';
import { evidencePlace, figureText } from '../../contract/diagnosis.js';
import { escapeHtml as esc } from '../../contract/html-text.js';
import { ratioVerdict, type CompareReport } from '../../contract/report/compare-report.js';
import { fmt } from './html-parts.js';

// The compare report's per-cell summary (issue 36), as the Compare view shows it: every user text
// escaped, exact figures in data-value, a ratio's verdict only where its interval excludes 1.

/** A matrix Compare at a glance: a row per server run and phase, each key figure for every run and its ratio to A (contract/compare-summary.ts). */
export function summaryBlock(report: CompareReport): string {
  if (report.summary.length === 0) return '';
  const runs = report.runs;
  const letter = (i: number) => String.fromCharCode(65 + i);
  const phases = new Set(report.summary.map((r) => r.phase)).size > 1;
  const groups = SUMMARY_COLUMNS.map((c) => `<th colspan="${runs.length + (c.metric === null ? 0 : runs.length - 1)}">${esc(c.label)}</th>`).join('');
  const subs = SUMMARY_COLUMNS.map((c) => runs.map((r, i) => `<th title="run #${r.runId}">${letter(i)}</th>`).join('') + (c.metric === null ? '' : runs.slice(1).map((_, i) => `<th>${letter(i + 1)}/A</th>`).join(''))).join('');
  const rows = report.summary
    .map((row) => {
      const cells = SUMMARY_COLUMNS.map((c, k) => {
        const cell = row.cells[k]!;
        const values = cell.values.map((v) => `<td class="num" data-field="${esc(c.key)}"${v === null ? '' : ` data-value="${v}"`}>${c.metric === null ? (v === null ? '-' : v.toLocaleString('en-US')) : fmt(v)}</td>`).join('');
        const metric = c.metric;
        if (metric === null) return values;
        const ratios = cell.ratios
          .slice(1)
          .map((r, i) => {
            const iv = cell.intervals[i + 1];
            const judged = cell.judgements[i + 1] ?? null;
            const verdict = judged === null ? '' : ratioVerdict(metric, iv ?? null);
            return `<td class="num ratio ${verdict}"${judged === null ? '' : ` title="${esc(intervalWords(iv))}" data-judgement="${judged}"`}${r === null ? '' : ` data-value="${r}"`}>${r === null ? '-' : `×${r.toFixed(2)}`}</td>`;
          })
          .join('');
        return values + ratios;
      }).join('');
      const name = row.short.split('\n').map(esc).join('<br>');
      return `<tr data-server="${esc(row.server)}" data-phase="${esc(row.phase)}"><th class="left" title="${esc(row.title)}">${name}</th>${phases ? `<td class="left">${esc(row.phase)}</td>` : ''}${cells}</tr>`;
    })
    .join('');
  return `<section class="summary" data-rows="${report.summary.length}"><h2>Each server run at a glance <span class="muted">(every run's figures side by side, and each against A; a ratio marked better/worse only where its 95 % bootstrap interval excludes 1)</span></h2>
<table class="data compare-summary"><thead><tr><th class="left" rowspan="2">server run</th>${phases ? '<th class="left" rowspan="2">phase</th>' : ''}${groups}</tr><tr>${subs}</tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** What changed (issue 38): the explanation's lines as Compare and `compare` say them, evidence on hover. */
export function whatChangedBlock(report: CompareReport): string {
  if (report.explanation.length === 0) return '';
  const several = report.runs.length > 2;
  const items = report.explanation
    .map((f) => {
      const hover = f.evidence.figures.length > 0 ? `${f.evidence.figures.map(figureText).join(', ')}; from ${evidencePlace(f.evidence)}` : f.wouldChange;
      const next = f.kind === 'finding' ? `<div class="muted">next: ${esc(f.next)}</div>` : '';
      return `<li data-rule="${esc(f.rule)}" title="${esc(hover)}"><b>${esc(f.rule)}</b> ${several ? `run #${f.runId} vs #${f.baselineRunId}: ` : ''}${esc(f.text)}${next}</li>`;
    })
    .join('');
  return `<section class="what-changed"><h2>What changed <span class="muted">(a move beyond the noise and 10 %, and the part of the time that carried it)</span></h2><ul>${items}</ul></section>`;
}
