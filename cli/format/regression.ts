import { ruleUnit, type RegressionResult, type RegressionRule, type RuleCheck } from '../../contract/regression-rules.js';
import { fmtMs, fmtNum, textTable } from './table.js';
import { terminalSafeInline } from './terminal-safe.js';

// A regression verdict as the terminal, --json, --markdown and --junit show it: one wording of a
// rule's values and change, so the four cannot disagree.

/** A rule's figure with its unit: "12.30 ms", "812.4 req/s", "1.20 %" (an error rate). */
export function ruleValueText(rule: Pick<RegressionRule, 'metric'>, value: number | null): string {
  if (value === null) return '-';
  const unit = ruleUnit(rule.metric);
  if (unit === 'ms') return `${fmtMs(value)} ms`;
  if (unit === 'req/s') return `${fmtNum(value, 1)} req/s`;
  return `${fmtNum(value * 100, 2)} %`;
}

/** A change in the rule's terms: "+12.3 %" (relative), "+4.10 ms" / "+0.50 points" (absolute). */
export function ruleChangeText(rule: Pick<RegressionRule, 'metric' | 'relative'>, change: number | null): string {
  if (change === null) return '-';
  const sign = change >= 0 ? '+' : '';
  if (rule.relative) return `${sign}${fmtNum(change * 100, 1)} %`;
  const unit = ruleUnit(rule.metric);
  if (unit === 'ms') return `${sign}${fmtMs(change)} ms`;
  if (unit === 'req/s') return `${sign}${fmtNum(change, 1)} req/s`;
  return `${sign}${fmtNum(change * 100, 2)} points`;
}

export function intervalText(rule: Pick<RegressionRule, 'metric' | 'relative'>, interval: RuleCheck['interval']): string {
  return interval === null ? '-' : `${ruleChangeText(rule, interval.low)} .. ${ruleChangeText(rule, interval.high)}`;
}

/** The words for a check whose interval is too wide to judge (Compare's rule): "too variable to judge"; null for any other. */
export function tooWideText(c: Pick<RuleCheck, 'judgement' | 'verdict'>): string | null {
  return c.verdict === 'unjudged' && (c.judgement === 'too short' || c.judgement === 'too variable') ? `${c.judgement} to judge` : null;
}

/** A check's interval as the tables show it: the words where it is too wide to judge, never an absurd range. */
export function checkIntervalText(rule: Pick<RegressionRule, 'metric' | 'relative'>, c: Pick<RuleCheck, 'interval' | 'judgement' | 'verdict'>): string {
  return tooWideText(c) ?? intervalText(rule, c.interval);
}

/** Where a check was made: "single / steady", with its endpoint when scoped to one. */
export function checkPlace(c: Pick<RuleCheck, 'server' | 'phase' | 'endpoint'>): string {
  return `${c.server} / ${c.phase}${c.endpoint === null ? '' : ` / ${c.endpoint}`}`;
}

const VERDICT_WORD = { pass: 'pass', fail: 'FAIL', unjudged: 'not judged' } as const;

/** "baseline: run 12 · now: runs 15, 16, 17" */
export function sidesText(result: Pick<RegressionResult, 'baselineRunIds' | 'nowRunIds'>): string {
  const runs = (ids: readonly number[]) => (ids.length === 1 ? `run ${ids[0]}` : `runs ${ids.join(', ')} (a repeated group)`);
  return `baseline: ${runs(result.baselineRunIds)}, now: ${runs(result.nowRunIds)}`;
}

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
  return [head, textTable(['rule', 'server / phase', 'baseline', 'now', 'change', '95 % interval', 'verdict'], rows), ...notes, ...noneJudged,
    'A rule fails only when the change is beyond its margin and beyond the noise (its 95 % interval lies wholly past the margin).'].join('\n');
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
