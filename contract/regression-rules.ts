import type { IntervalJudgement } from './compare.js';
import { LoadscopeError } from './errors.js';
import type { EndpointMove } from './run-verdict.js';

// Regression rules (`--fail-on`): how far a figure may move against a baseline before CI fails.
// Zod-free: the CLI parses them from the command line, the engine judges them (engine/compare/
// regression.ts), and the grammar is one function both share.
//
//   rule   = metric op margin [scope...]
//   metric = throughput | errors.rate | checks.rate | total|wait|processing . mean|p50|p90|p99
//          | ttfe|gap|rtt . mean|p50|p90|p99 | messages.rate      streams (issue 41; ms, messages/s)
//   op     = > | <                      the direction that counts as worse
//   margin = [+|-]number[%]             with %: a relative change (+10% = 1.10 x the baseline);
//                                       without: an absolute difference in the metric's unit
//                                       (ms, req/s, msg/s, or a rate for errors.rate and checks.rate: +0.01 = 1 point)
//   scope  = server=VALUE | phase=VALUE | endpoint=VALUE
//            VALUE: a word without spaces, or "double quoted" (\" and \\ inside)
//
// e.g. `total.p99 > +10%`, `throughput < -5% phase=steady`, `errors.rate > +0.01 server="thread-pool · cores 2"`.
// A rule fails only when the change is beyond its margin AND beyond the noise: the change's 95 %
// interval lies wholly past the margin and excludes no change at all.

/**
 * The figures a rule can name: those Compare has a noise interval for, the error rate and the checks'
 * pass rate, and a stream's message times and rate (their interval from the live windows, made by the
 * same code as Compare's stream rows). Not streams.count nor messages.count: a count is set by the
 * scenario (users, count, events), not measured against a noise.
 */
export const RULE_METRICS = [
  'throughput',
  'errors.rate',
  'checks.rate',
  'total.mean',
  'total.p50',
  'total.p90',
  'total.p99',
  'wait.mean',
  'wait.p99',
  'processing.mean',
  'processing.p99',
  ...(['ttfe', 'gap', 'rtt'] as const).flatMap((of) => [`${of}.mean`, `${of}.p50`, `${of}.p90`, `${of}.p99`] as const),
  'messages.rate',
] as const;
export type RuleMetric = (typeof RULE_METRICS)[number];

export const RULE_SCOPES = ['server', 'phase', 'endpoint'] as const;
export type RuleScopeKey = (typeof RULE_SCOPES)[number];
export type RuleScope = Partial<Record<RuleScopeKey, string>>;

export interface RegressionRule {
  /** the rule as written */
  text: string;
  metric: RuleMetric;
  /** '>': worse is up (latency, errors); '<': worse is down (throughput) */
  op: '>' | '<';
  /** relative: a fraction of the baseline (0.1 = +10 %); absolute: in the metric's unit */
  margin: number;
  relative: boolean;
  scope: RuleScope;
}

/** At most this many rules on one command line: each is judged for every paired phase. */
export const MAX_RULES = 50;
const MAX_RULE_LENGTH = 500;

/** What a rule's values are measured in (absolute margins are in this unit); a stored verdict's metric is a plain string. */
export function ruleUnit(metric: RuleMetric | string): 'ms' | 'req/s' | 'msg/s' | 'rate' {
  if (metric === 'throughput') return 'req/s';
  if (metric === 'messages.rate') return 'msg/s';
  if (metric === 'errors.rate' || metric === 'checks.rate') return 'rate';
  return 'ms';
}

const HEAD = /^\s*([a-z]+(?:\.[a-z0-9]+)?)\s*(>|<)\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(%?)/;

function bad(text: string, why: string): LoadscopeError {
  const shown = text.length > 80 ? `${text.slice(0, 80)}...` : text;
  return new LoadscopeError(
    'LS_ERR_BAD_REQUEST',
    `--fail-on ${JSON.stringify(shown)}: ${why}; a rule is "<metric> <op> <margin>[%] [server=.. phase=.. endpoint=..]", e.g. "total.p99 > +10%"`,
  );
}

/** Scope words after the margin: key=value pairs, each key once. */
function parseScope(text: string, rest: string): RuleScope {
  const scope: RuleScope = {};
  let i = 0;
  while (i < rest.length) {
    if (/\s/.test(rest[i]!)) {
      i++;
      continue;
    }
    const key = /^([a-z]+)=/.exec(rest.slice(i));
    if (!key) throw bad(text, `expected server=, phase= or endpoint= at ${JSON.stringify(rest.slice(i, i + 20))}`);
    const name = key[1]!;
    if (!(RULE_SCOPES as readonly string[]).includes(name)) throw bad(text, `unknown scope '${name}' (server, phase or endpoint)`);
    const scopeKey = name as RuleScopeKey;
    if (scope[scopeKey] !== undefined) throw bad(text, `${name}= given twice`);
    i += key[0].length;
    let value = '';
    if (rest[i] === '"') {
      i++;
      let closed = false;
      while (i < rest.length) {
        const c = rest[i]!;
        if (c === '\\' && i + 1 < rest.length) {
          value += rest[i + 1];
          i += 2;
        } else if (c === '"') {
          i++;
          closed = true;
          break;
        } else {
          value += c;
          i++;
        }
      }
      if (!closed) throw bad(text, `${name}= has an unclosed quote`);
      if (i < rest.length && !/\s/.test(rest[i]!)) throw bad(text, `expected a space after ${name}="..."`);
    } else {
      while (i < rest.length && !/\s/.test(rest[i]!)) value += rest[i++];
    }
    if (value === '') throw bad(text, `${name}= needs a value`);
    scope[scopeKey] = value;
  }
  return scope;
}

/** `total.p99 > +10%` -> its parts, or a LoadscopeError naming what is wrong. */
export function parseRegressionRule(text: string): RegressionRule {
  if (text.length > MAX_RULE_LENGTH) throw bad(text, `longer than ${MAX_RULE_LENGTH} characters`);
  const m = HEAD.exec(text);
  if (!m) throw bad(text, 'not a rule');
  const metric = m[1]!;
  if (!(RULE_METRICS as readonly string[]).includes(metric)) throw bad(text, `unknown metric '${metric}' (${RULE_METRICS.join(', ')})`);
  const number = Number(m[3]);
  if (!Number.isFinite(number)) throw bad(text, 'the margin is not a number');
  const relative = m[4] === '%';
  const rest = text.slice(m[0].length);
  if (rest !== '' && !/^\s/.test(rest)) throw bad(text, `unexpected ${JSON.stringify(rest.slice(0, 20))} after the margin`);
  return { text, metric: metric as RuleMetric, op: m[2] as '>' | '<', margin: relative ? number / 100 : number, relative, scope: parseScope(text, rest) };
}

/** Every --fail-on of a command line, parsed; a command line of more than MAX_RULES is refused. */
export function parseRegressionRules(texts: readonly string[]): RegressionRule[] {
  if (texts.length > MAX_RULES) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${texts.length} --fail-on rules; at most ${MAX_RULES}`);
  return texts.map(parseRegressionRule);
}

/**
 * Whether a change's interval fails a rule: wholly past the margin in the rule's direction, and
 * past no change at all (beyond the noise). Both ends are in the rule's terms (a fraction for a
 * relative rule, the metric's unit for an absolute one).
 */
export function intervalFails(rule: Pick<RegressionRule, 'op' | 'margin'>, interval: { low: number; high: number }): boolean {
  return rule.op === '>' ? interval.low > rule.margin && interval.low > 0 : interval.high < rule.margin && interval.high < 0;
}

export type CheckVerdict = 'pass' | 'fail' | 'unjudged';

/** One rule judged on one paired phase (or endpoint). */
export interface RuleCheck {
  server: string;
  phase: string;
  /** the endpoint, for a rule scoped to one; null: the phase as a whole */
  endpoint: string | null;
  /** the figure in the baseline and now (the mean over a repeated group's runs); null when not measured */
  baseline: number | null;
  now: number | null;
  /** now against the baseline, in the rule's terms: a fraction (relative) or the metric's unit (absolute) */
  change: number | null;
  /** the change's 95 % interval, in the same terms; null when there is none (too few windows, or not measured) */
  interval: { low: number; high: number } | null;
  /**
   * what Compare's one rule (contract/compare.ts judgeInterval) says of that interval as a ratio:
   * 'too short' / 'too variable' when it is too wide to judge (the check is then 'unjudged' and its
   * rule passes with a warning); null where Compare has no such rule (the error rate) or no interval
   */
  judgement: IntervalJudgement | null;
  /** which noise the interval measures: inside each run (one run a side) or across a group's runs */
  noise: 'within runs' | 'between runs' | null;
  verdict: CheckVerdict;
  /** one line: why this verdict */
  why: string;
  /**
   * a failed check of a phase split into endpoints: the endpoint whose figure moved most the worse
   * way (its point change, in the rule's terms); null or absent otherwise
   */
  movedMost?: EndpointMove | null;
}

export interface RuleResult {
  rule: RegressionRule;
  verdict: 'pass' | 'fail';
  why: string;
  checks: RuleCheck[];
}

export interface RegressionResult {
  baselineRunIds: number[];
  nowRunIds: number[];
  rules: RuleResult[];
  /** some rule failed: `loadscope run` and `compare` exit REGRESSION_FAILED_EXIT_CODE */
  failed: boolean;
}
