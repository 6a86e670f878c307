import { escapeHtml as esc } from '../../contract/html-text.js';
import { againstText, checkPlace, CONFIRM_WITH_REPEAT, movedMostText, ONE_RUN_NOISE, regressionTallyText, ruleChangeText, ruleValueText, whyBesideMove } from '../../contract/regression-words.js';
import { judgedWithOneRun, regressionTally } from '../../contract/run-verdict.js';
import type { RunReport } from '../../contract/report/run-report.js';

// The HTML report's regression verdict (issue 36): under its thresholds, every rule `run --baseline`
// judged, where it failed and by how much, and for one run against one, what that rests on.
// Rules, servers, phases and endpoints are user strings: each goes through esc().

export function regressionBlock(report: Pick<RunReport, 'regression'>): string {
  const v = report.regression;
  if (v === null) return '';
  const tally = regressionTally(v)!;
  const rows = v.rules
    .map((r) => {
      // the check that decided the rule: its first failed one, else its first
      const c = r.checks.find((x) => x.verdict === 'fail') ?? r.checks[0];
      const moved = c?.movedMost == null ? '' : `<div class="worse" data-moved-most>${esc(movedMostText(r, c.movedMost))}</div>`;
      return `<tr class="${r.verdict}" data-rule="${esc(r.rule)}"><td class="left"><code>${esc(r.rule)}</code></td><td class="left">${c === undefined ? '-' : esc(checkPlace(c))}${moved}</td><td class="num">${c === undefined ? '-' : esc(ruleValueText(r, c.baseline))}</td><td class="num">${c === undefined ? '-' : esc(ruleValueText(r, c.now))}</td><td class="num">${c === undefined ? '-' : esc(ruleChangeText(r, c.change))}</td><td class="left verdict">${r.verdict === 'pass' ? 'pass' : 'FAIL'}</td><td class="left">${esc(c === undefined ? r.why : whyBesideMove(r, c))}</td></tr>`;
    })
    .join('');
  const oneRun = judgedWithOneRun(v) ? `<p class="muted" data-one-run-noise>${esc(`Note: ${ONE_RUN_NOISE}; ${CONFIRM_WITH_REPEAT}.`)}</p>` : '';
  return `<h2>Regression rules <span class="muted">${esc(regressionTallyText({ ...tally, oneRun: false }, againstText(v)))}</span></h2>${oneRun}
<table class="data regression" data-failed="${tally.failed}"><thead><tr><th class="left">rule</th><th class="left">server / phase</th><th>baseline</th><th>now</th><th>change</th><th class="left">result</th><th class="left">why</th></tr></thead><tbody>${rows}</tbody></table>`;
}
