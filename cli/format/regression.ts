import type { RegressionResult } from '../../contract/regression-rules.js';
import { checkIntervalText, checkPlace, CONFIRM_WITH_REPEAT, ONE_RUN_NOISE, ruleChangeText, ruleValueText, sidesText, tooWideText } from '../../contract/regression-words.js';
import { judgedWithOneRun } from '../../contract/run-verdict.js';
import { textTable } from './table.js';
import { terminalSafeInline } from './terminal-safe.js';

// A regression verdict as the terminal and --json show it; the words of a rule's values and change
// are contract/regression-words.ts's, which --markdown, --junit and the UI use too.

const VERDICT_WORD = { pass: 'pass', fail: 'FAIL', unjudged: 'not judged' } as const;

/** The terminal's table: one row per rule and paired phase. */
export function formatRegression(result: RegressionResult): string {
  const rows: string[][] = [];
  for (const r of result.rules) {
    if (r.checks.length === 0) rows.push([r.rule.text, '-', '-', '-', '-', '-', `FAIL: ${r.why}`]);
    for (const c of r.checks) {
      const wide = tooWideText(c);
      rows.push([r.rule.text, checkPlace(c), ruleValueText(r.rule, c.baseline), ruleValueText(r.rule, c.now), ruleChangeText(r.rule, c.change), checkIntervalText(r.rule, c), wide === null ? VERDICT_WORD[c.verdict] : `${wide}: pass, with a warning`]);
    }
  }
  const failed = result.rules.filter((r) => r.verdict === 'fail');
  const warned = result.rules.filter((r) => r.verdict === 'pass' && r.checks.some((c) => tooWideText(c) !== null)).length;
  const head = `Regression rules (${sidesText(result)}): ${failed.length === 0 ? 'all passed' : `${failed.length} of ${result.rules.length} failed`}${warned > 0 ? `; ${warned} passed with a warning (too wide to judge)` : ''}`;
  // user strings (rules, server, phase and endpoint names) reach the terminal as text (cli/format/terminal-safe.ts)
  const notes = result.rules.flatMap((r) => r.checks.filter((c) => c.verdict !== 'pass').map((c) => `  ${terminalSafeInline(`${r.rule.text} at ${checkPlace(c)}: ${c.why}`)}`));
  const noneJudged = result.rules.filter((r) => r.verdict === 'fail' && !r.checks.some((c) => c.verdict === 'fail')).map((r) => `  ${terminalSafeInline(`${r.rule.text}: ${r.why}`)}`);
  // one run against one: its verdict rests on that run's own noise, so say so and how to confirm it
  const oneRun = judgedWithOneRun(result) ? [`Note: ${ONE_RUN_NOISE}; ${CONFIRM_WITH_REPEAT}.`] : [];
  return [head, textTable(['rule', 'server / phase', 'baseline', 'now', 'change', '95 % interval', 'verdict'], rows), ...notes, ...noneJudged,
    'A rule fails only when the change is beyond its margin and beyond the noise (its 95 % interval lies wholly past the margin).', ...oneRun].join('\n');
}

/** The --json form: each rule with its verdict and, per paired phase, both values, the change, its interval and the verdict. */
export function regressionJson(result: RegressionResult) {
  return {
    baselineRunIds: result.baselineRunIds,
    nowRunIds: result.nowRunIds,
    failed: result.failed,
    rules: result.rules.map((r) => ({
      rule: r.rule.text,
      metric: r.rule.metric,
      op: r.rule.op,
      /** a fraction of the baseline when relative (0.1 = +10 %), else in the metric's unit */
      margin: r.rule.margin,
      relative: r.rule.relative,
      scope: r.rule.scope,
      verdict: r.verdict,
      why: r.why,
      checks: r.checks.map((c) => ({ ...c })),
    })),
  };
}
