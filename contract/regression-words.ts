import { fmtMs, fmtNum } from './number-text.js';
import { ruleUnit, type RegressionResult, type RuleCheck } from './regression-rules.js';
import type { EndpointMove, RegressionTally, RunVerdict, VerdictRule } from './run-verdict.js';

// One wording of a regression verdict: the terminal, --markdown, --junit, the UI's badge and list, the
// HTML and the PNG all put a rule's values, change and place through these, so none can disagree.
// They take the judged result (contract/regression-rules.ts) and the stored one (run-verdict.ts) alike.

type Metric = { metric: string };
type Change = Metric & { relative: boolean };

/** A rule's figure with its unit: "12.30 ms", "812.4 req/s", "40.0 msg/s", "1.20 %" (an error rate). */
export function ruleValueText(rule: Metric, value: number | null): string {
  if (value === null) return '-';
  const unit = ruleUnit(rule.metric);
  if (unit === 'ms') return `${fmtMs(value)} ms`;
  if (unit === 'req/s' || unit === 'msg/s') return `${fmtNum(value, 1)} ${unit}`;
  return `${fmtNum(value * 100, 2)} %`;
}

/** A change in the rule's terms: "+12.3 %" (relative), "+4.10 ms" / "+0.50 points" (absolute). */
export function ruleChangeText(rule: Change, change: number | null): string {
  if (change === null) return '-';
  const sign = change >= 0 ? '+' : '';
  if (rule.relative) return `${sign}${fmtNum(change * 100, 1)} %`;
  const unit = ruleUnit(rule.metric);
  if (unit === 'ms') return `${sign}${fmtMs(change)} ms`;
  if (unit === 'req/s' || unit === 'msg/s') return `${sign}${fmtNum(change, 1)} ${unit}`;
  return `${sign}${fmtNum(change * 100, 2)} points`;
}

export function intervalText(rule: Change, interval: RuleCheck['interval']): string {
  return interval === null ? '-' : `${ruleChangeText(rule, interval.low)} .. ${ruleChangeText(rule, interval.high)}`;
}

/** The words for a check whose interval is too wide to judge (Compare's rule): "too variable to judge"; null for any other. */
export function tooWideText(c: Pick<RuleCheck, 'judgement' | 'verdict'>): string | null {
  return c.verdict === 'unjudged' && (c.judgement === 'too short' || c.judgement === 'too variable') ? `${c.judgement} to judge` : null;
}

/** A check's interval as the tables show it: the words where it is too wide to judge, never an absurd range. */
export function checkIntervalText(rule: Change, c: Pick<RuleCheck, 'interval' | 'judgement' | 'verdict'>): string {
  return tooWideText(c) ?? intervalText(rule, c.interval);
}

/** Where a check was made: "single / steady", with its endpoint when scoped to one. */
export function checkPlace(c: Pick<RuleCheck, 'server' | 'phase' | 'endpoint'>): string {
  return `${c.server} / ${c.phase}${c.endpoint === null ? '' : ` / ${c.endpoint}`}`;
}

/** "moved most: GET /slow +120.5 %": the endpoint a failed phase check names. */
export function movedMostText(rule: Change, move: EndpointMove): string {
  return `moved most: ${move.endpoint} ${ruleChangeText(rule, move.change)} (${ruleValueText(rule, move.baseline)} → ${ruleValueText(rule, move.now)})`;
}

/** A check's why without its moved-most clause, for a view that shows the move on a line of its own. */
export function whyBesideMove(rule: Change, c: Pick<RuleCheck, 'why' | 'movedMost'>): string {
  const clause = c.movedMost == null ? '' : `; ${movedMostText(rule, c.movedMost)}`;
  return clause !== '' && c.why.endsWith(clause) ? c.why.slice(0, -clause.length) : c.why;
}

/** "baseline: run 12, now: runs 15, 16, 17 (a repeated group)" */
export function sidesText(result: Pick<RegressionResult, 'baselineRunIds' | 'nowRunIds'>): string {
  const runs = (ids: readonly number[]) => (ids.length === 1 ? `run ${ids[0]}` : `runs ${ids.join(', ')} (a repeated group)`);
  return `baseline: ${runs(result.baselineRunIds)}, now: ${runs(result.nowRunIds)}`;
}

/**
 * What a verdict of one run against one baseline run rests on, and how to confirm it: said wherever
 * such a verdict is shown (terminal, Markdown, the UI's badge). One run's noise is only that run's
 * own: a cold cache, a neighbour's burst or a delay just removed can move it past any margin once.
 */
export const ONE_RUN_NOISE = "judged with one run's noise: a single run against a single baseline run can fail once by chance (a cold start, a busy machine)";
export const CONFIRM_WITH_REPEAT = 'confirm with --repeat 3 (the spread between runs is then the noise), against a baseline pinned from a --repeat 3 run too';

/** "regression: 1 of 3 rules failed [against baseline run 12] (one run's noise)" / "regression rules: all 3 passed". */
export function regressionTallyText(t: NonNullable<RegressionTally>, against?: string): string {
  const head = t.failed > 0 ? `regression: ${t.failed} of ${t.rules} ${t.rules === 1 ? 'rule' : 'rules'} failed` : `regression rules: ${t.rules === 1 ? 'the 1 rule' : `all ${t.rules}`} passed`;
  return `${head}${against === undefined ? '' : ` ${against}`}${t.oneRun ? " (one run's noise)" : ''}`;
}

/** The first failed check of a rule, worded: "+42.8 % at single / steady (moved most: GET /slow +120.5 %)". */
export function failedCheckText(rule: VerdictRule): string | null {
  const c = rule.checks.find((x) => x.verdict === 'fail');
  if (c === undefined) return null;
  return `${ruleChangeText(rule, c.change)} at ${checkPlace(c)}${c.movedMost == null ? '' : ` (${movedMostText(rule, c.movedMost)})`}`;
}

/** One line per rule for the HTML, the PNG and the UI: "FAIL total.p99 > +10%: +42.8 % at single / steady". */
export function verdictRuleLine(rule: VerdictRule): string {
  const failed = failedCheckText(rule);
  return `${rule.verdict === 'fail' ? 'FAIL' : 'pass'} ${rule.rule}: ${failed ?? rule.why}`;
}

/** "against baseline run 12" / "against baseline runs 12, 13, 14" */
export function againstText(v: Pick<RunVerdict, 'baselineRunIds'>): string {
  return `against baseline ${v.baselineRunIds.length === 1 ? `run ${v.baselineRunIds[0]}` : `runs ${v.baselineRunIds.join(', ')}`}`;
}
