import { checkTotals, errorRate, errorTotal, figureOf } from '../../contract/figures.js';
import { intervalKey, intervalWords, judgeInterval, pairPhases, RULE_ONLY_METRICS, TOO_WIDE_SPAN, type IntervalJudgement, type PhasePair, type RatioInterval } from '../../contract/compare.js';
import { t95 } from '../../contract/group-stats.js';
import { intervalFails, type RegressionResult, type RegressionRule, type RuleCheck, type RuleResult } from '../../contract/regression-rules.js';
import type { LiveWindow, PhaseResult, RunEngine, RunSummary } from '../../contract/results.js';
import { movedMostText, ruleChangeText } from '../../contract/regression-words.js';
import type { EndpointMove } from '../../contract/run-verdict.js';
import { compareIntervals, MIN_BLOCKS, type CompareSamples } from './compare-intervals.js';

// Judging regression rules against a baseline. The noise is Compare's own:
//  - one run on each side: the within-run bootstrap intervals of engine/compare/compare-intervals.ts
//    (widened by each run's drift; a stream's figures from the phase's live windows, so a rule
//    scoped to one endpoint of a stream has none); the error rate, which has no bootstrap there, gets a normal
//    interval from its windows (each 250 ms window one observation, weighted by its requests); the
//    checks' pass rate, which no window counts, the normal interval of a difference of two
//    proportions (each check of each response one trial);
//  - a repeated group on either side: between-run intervals, Student's t over the runs' figures
//    (contract/group-stats.ts t95): Welch's for two groups; against a single run, the group's own
//    spread stands for both sides (one run alone says nothing about how runs vary).
// A check fails only when its interval lies wholly past the margin and past no change
// (contract/regression-rules.ts intervalFails). An interval too wide to judge, by Compare's one rule
// (contract/compare.ts judgeInterval: as a ratio it holds 1 and spans over x10), is not judged and
// says "too short / too variable to judge", never "within the noise"; its rule passes with a warning
// (docs/ci.md: a gate that cannot tell a change from none does not fail CI on every ramp).
// A failed check of a phase split into endpoints names the endpoint that moved most the worse way
// (movedMost), so a phase rule says where to look, not only that the phase moved.

export interface RegressionInput {
  /** the baseline: one run, or every run of its repeated group */
  baseline: readonly RunSummary[];
  /** what is judged: one run, or every run of its repeated group */
  now: readonly RunSummary[];
  /** one run on each side: their windows and raw rows (index 0 baseline, 1 now) */
  samples: CompareSamples;
  /** one run on each side: Compare's intervals of [baseline, now] when a command already built them (absent: built here) */
  intervals?: readonly RatioInterval[];
}

const Z95 = 1.959964;

/** A rule's figure of one paired phase as its run's engine measured it (contract/figures.ts); null when not measured. */
const figure = (rule: RegressionRule, phase: PhaseResult, engine: RunEngine): number | null => figureOf(phase, rule.metric, engine);

function targetOf(run: RunSummary, targetId: number) {
  return run.targets.find((t) => t.id === targetId);
}

/** Whether a rule's scope takes this pair: without endpoint=, phases as a whole; server by name, label or architecture. */
function inScope(rule: RegressionRule, pair: PhasePair, runs: readonly RunSummary[]): boolean {
  const { server, phase, endpoint } = rule.scope;
  if ((pair.endpoint ?? null) !== (endpoint ?? null)) return false;
  if (phase !== undefined && pair.phase !== phase) return false;
  if (server === undefined || pair.server === server) return true;
  return pair.runs.some((p, i) => {
    const t = p && runs[i] ? targetOf(runs[i], p.targetId) : undefined;
    return t !== undefined && (t.label === server || t.architecture === server);
  });
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: readonly number[]) => {
  const m = mean(xs);
  return xs.length < 2 ? 0 : xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};

/** 95 % interval of mean(now) - mean(base) across runs; null when neither side has two runs. */
export function betweenRunsInterval(base: readonly number[], now: readonly number[]): { low: number; high: number } | null {
  const [na, nb] = [base.length, now.length];
  if (na === 0 || nb === 0 || (na < 2 && nb < 2)) return null;
  const diff = mean(now) - mean(base);
  let se: number;
  let df: number;
  if (na >= 2 && nb >= 2) {
    const [va, vb] = [variance(base) / na, variance(now) / nb];
    se = Math.sqrt(va + vb);
    // Welch-Satterthwaite
    const den = (va * va) / (na - 1) + (vb * vb) / (nb - 1);
    df = den > 0 ? Math.max(1, Math.floor((va + vb) ** 2 / den)) : na + nb - 2;
  } else {
    const group = na >= 2 ? base : now;
    se = Math.sqrt(variance(group) * (1 / na + 1 / nb));
    df = group.length - 1;
  }
  const half = t95(df) * se;
  return { low: diff - half, high: diff + half };
}

/** 95 % interval of now - base of the error rate, from each side's windows (a normal interval of a ratio estimator). */
function errorRateInterval(base: readonly LiveWindow[], now: readonly LiveWindow[]): { low: number; high: number } | null {
  const side = (windows: readonly LiveWindow[]) => {
    const used = windows.filter((w) => w.count > 0);
    if (used.length < MIN_BLOCKS) return null;
    const n = used.reduce((s, w) => s + w.count, 0);
    const rate = used.reduce((s, w) => s + errorTotal(w.errors), 0) / n;
    // variance of a weighted mean of the windows' rates, weights their requests
    const v = used.reduce((s, w) => s + w.count ** 2 * ((errorRate(w) ?? 0) - rate) ** 2, 0) / n ** 2;
    return { rate, v: (v * used.length) / Math.max(1, used.length - 1) };
  };
  const [a, b] = [side(base), side(now)];
  if (!a || !b) return null;
  const half = Z95 * Math.sqrt(a.v + b.v);
  return { low: b.rate - a.rate - half, high: b.rate - a.rate + half };
}

/** 95 % interval of now - base of the checks' pass rate: two proportions, each check of each response a trial. */
function checkRateInterval(base: PhaseResult | undefined, now: PhaseResult | undefined): { low: number; high: number } | null {
  const side = (p: PhaseResult | undefined) => {
    const t = p === undefined ? null : checkTotals(p);
    const n = t === null ? 0 : t.passes + t.fails;
    return t === null || n === 0 ? null : { rate: t.passes / n, n };
  };
  const [a, b] = [side(base), side(now)];
  if (!a || !b) return null;
  const half = Z95 * Math.sqrt((a.rate * (1 - a.rate)) / a.n + (b.rate * (1 - b.rate)) / b.n);
  return { low: b.rate - a.rate - half, high: b.rate - a.rate + half };
}

/** too wide to judge: the check is not judged, and its rule passes with a warning */
const tooWide = (j: IntervalJudgement | null): j is 'too short' | 'too variable' => j === 'too short' || j === 'too variable';

/** A rule's figures of one pair on one side: the runs [from, to) that measured it. */
function valuesOf(rule: RegressionRule, pair: PhasePair, from: number, to: number): number[] {
  return pair.runs.slice(from, to).flatMap((p) => {
    const v = p ? figure(rule, p.phase, p.engine) : null;
    return v === null ? [] : [v];
  });
}

/**
 * Of a phase split into endpoints, the endpoint whose figure moved most the worse way (a point change
 * in the rule's terms, no interval: it names where to look, the phase's check is the verdict); null
 * when the phase has no endpoints of its own or none moved the worse way.
 */
function movedMost(rule: RegressionRule, phase: PhasePair, pairs: readonly PhasePair[], nA: number): EndpointMove | null {
  let best: EndpointMove | null = null;
  const worse = (change: number) => (rule.op === '>' ? change : -change);
  for (const ep of pairs) {
    if (ep.endpoint === null || ep.key !== `${phase.key} / ${ep.endpoint}`) continue;
    const base = valuesOf(rule, ep, 0, nA);
    const now = valuesOf(rule, ep, nA, ep.runs.length);
    if (base.length === 0 || now.length === 0) continue;
    const [a, b] = [mean(base), mean(now)];
    if (rule.relative && a === 0) continue;
    const change = rule.relative ? b / a - 1 : b - a;
    if (worse(change) > 0 && (best === null || worse(change) > worse(best.change))) best = { endpoint: ep.endpoint, baseline: a, now: b, change };
  }
  return best;
}

/** Whether a rule names a stream's figure (issue 41): measured only on SSE, WebSocket and gRPC requests. */
const isStreamRule = (rule: RegressionRule): boolean => /^(ttfe|gap|rtt|messages)\./.test(rule.metric);

/** Why one side has no value for a rule's figure: not in that run, no stream in that phase, or not measured. */
function notMeasured(rule: RegressionRule, side: readonly (PhasePair['runs'][number])[], who: 'the baseline' | 'this run'): string {
  const present = side.filter((p) => p !== null);
  if (present.length === 0) return who === 'the baseline' ? 'not in the baseline' : 'not in this run';
  if (isStreamRule(rule) && present.every((p) => p.phase.stream === undefined)) {
    return `${who} opened no stream here: ${rule.metric} is measured only on SSE, WebSocket and gRPC requests (a template's stream)`;
  }
  return `${who} did not measure ${rule.metric}`;
}

/** Judges one rule on one paired phase. */
function check(rule: RegressionRule, pair: PhasePair, input: RegressionInput, ratios: Map<string, RatioInterval>, pairs: readonly PhasePair[]): RuleCheck {
  const nA = input.baseline.length;
  const runs = [...input.baseline, ...input.now];
  const base = valuesOf(rule, pair, 0, nA);
  const now = valuesOf(rule, pair, nA, runs.length);
  const head = { server: pair.server, phase: pair.phase, endpoint: pair.endpoint ?? null, movedMost: null };
  const none = (why: string, b: number | null = null, n: number | null = null): RuleCheck => ({ ...head, baseline: b, now: n, change: null, interval: null, noise: null, judgement: null, verdict: 'unjudged', why });
  if (base.length === 0) return none(notMeasured(rule, pair.runs.slice(0, nA), 'the baseline'));
  const a = mean(base);
  if (now.length === 0) return none(notMeasured(rule, pair.runs.slice(nA), 'this run'), a);
  const b = mean(now);
  if (rule.relative && a === 0) return none(`the baseline's ${rule.metric} is 0: a relative change has no meaning; give an absolute margin`, a, b);
  const change = rule.relative ? b / a - 1 : b - a;

  let diff: { low: number; high: number } | null;
  let noise: RuleCheck['noise'];
  // the interval as Compare's ratio B/A, for its one rule of what is too wide to judge (not the error or check rate: Compare has no interval for them)
  let ratio: RatioInterval | { low: number; high: number } | undefined;
  if (input.baseline.length > 1 || input.now.length > 1) {
    diff = betweenRunsInterval(base, now);
    noise = 'between runs';
    if (diff && rule.metric !== 'errors.rate' && rule.metric !== 'checks.rate' && a > 0) ratio = { low: 1 + diff.low / a, high: 1 + diff.high / a };
  } else if (rule.metric === 'checks.rate') {
    diff = checkRateInterval(pair.runs[0]?.phase, pair.runs[1]?.phase);
    noise = 'within runs';
  } else if (rule.metric === 'errors.rate') {
    const windowsOf = (i: number) => {
      const p = pair.runs[i];
      return p ? input.samples.windows(i).filter((w) => w.targetId === p.targetId && w.phaseIndex === p.phase.index) : [];
    };
    // the windows are per phase: an endpoint's error rate has none of its own
    diff = pair.endpoint ? null : errorRateInterval(windowsOf(0), windowsOf(1));
    noise = 'within runs';
  } else if (isStreamRule(rule) && pair.endpoint !== null) {
    const why = `${rule.metric} has no interval per endpoint: a stream's messages are timed in 250 ms windows per phase, not per endpoint (judge the phase, or --repeat for an interval between runs)`;
    return { ...head, baseline: a, now: b, change, interval: null, noise: null, judgement: null, verdict: 'unjudged', why };
  } else {
    const r = ratios.get(intervalKey(pair.key, rule.metric, 1));
    diff = r ? { low: a * r.low - a, high: a * r.high - a } : null;
    noise = 'within runs';
    ratio = r;
  }
  if (!diff) {
    return { ...head, baseline: a, now: b, change, interval: null, noise: null, judgement: null, verdict: 'unjudged', why: `too short or too few runs to judge the noise (fewer than ${MIN_BLOCKS} windows of 250 ms)` };
  }
  const interval = rule.relative ? { low: diff.low / a, high: diff.high / a } : diff;
  const judgement = ratio === undefined ? null : judgeInterval(ratio);
  // the one wording of a change (contract/regression-words.ts): the why reads as the tables do
  const show = (x: number) => ruleChangeText(rule, x);
  if (tooWide(judgement) && ratio !== undefined) {
    // Compare's words: the bootstrap's own (span and why so wide), or the span across the runs
    const words =
      'resamples' in ratio
        ? intervalWords(ratio)
        : `${judgement} to judge: across the runs the 95 % interval of the ratio spans x${ratio.low > 0 ? Number((ratio.high / ratio.low).toPrecision(3)) : '∞'} (over x${TOO_WIDE_SPAN}), so it cannot tell a change from none`;
    return { ...head, baseline: a, now: b, change, interval, noise, judgement, verdict: 'unjudged', why: `${words}; changed ${show(change)}, not judged: passes with a warning` };
  }
  const fails = intervalFails(rule, interval);
  const range = `${show(interval.low)} .. ${show(interval.high)}`;
  // a failed phase rule names the endpoint that moved most, so the reader knows where to look
  const moved = fails && pair.endpoint === null ? movedMost(rule, pair, pairs, nA) : null;
  const why = fails
    ? `changed ${show(change)} (95 % interval ${range}): beyond the margin ${show(rule.margin)} and the noise${moved === null ? '' : `; ${movedMostText(rule, moved)}`}`
    : intervalFails(rule, { low: change, high: change })
      ? `changed ${show(change)}, but the 95 % interval ${range} does not lie wholly past ${show(rule.margin)}: within the noise`
      : `changed ${show(change)} (95 % interval ${range}): within the margin ${show(rule.margin)}`;
  return { ...head, baseline: a, now: b, change, interval, noise, judgement, verdict: fails ? 'fail' : 'pass', why, movedMost: moved };
}

/**
 * Every rule judged on every paired phase in its scope. A rule fails when any check fails, or when
 * none could be judged for want of a measure (nothing in scope, too few windows, not measured): a
 * gate that could not be checked must not let CI through. A check whose interval is too wide to
 * judge (too short / too variable) was measured but cannot tell a change from none: its rule passes
 * with a warning, as a CI gate that cannot judge does in k6's world, rather than failing every run of
 * a ramp.
 */
export function judgeRegression(rules: readonly RegressionRule[], input: RegressionInput): RegressionResult {
  const runs = [...input.baseline, ...input.now];
  const pairs = pairPhases(runs);
  const single = input.baseline.length === 1 && input.now.length === 1;
  const ratios = new Map<string, RatioInterval>();
  if (single && rules.some((r) => r.metric !== 'errors.rate' && r.metric !== 'checks.rate')) {
    for (const r of input.intervals ?? compareIntervals(runs, input.samples)) ratios.set(intervalKey(r.pairKey, r.metric, r.run), r);
    // a stream figure Compare's table leaves out: its interval made by the same code, only when a rule names it
    const extra = RULE_ONLY_METRICS.filter((m) => rules.some((r) => r.metric === m.key));
    if (extra.length > 0) for (const r of compareIntervals(runs, input.samples, extra)) ratios.set(intervalKey(r.pairKey, r.metric, r.run), r);
  }
  const results: RuleResult[] = rules.map((rule) => {
    const checks = pairs.filter((pair) => inScope(rule, pair, runs)).map((pair) => check(rule, pair, input, ratios, pairs));
    const failed = checks.filter((c) => c.verdict === 'fail').length;
    const judged = checks.filter((c) => c.verdict !== 'unjudged').length;
    const wide = checks.filter((c) => c.verdict === 'unjudged' && tooWide(c.judgement));
    if (checks.length === 0) return { rule, verdict: 'fail', why: 'nothing in its scope in both runs: no server, phase or endpoint matched', checks };
    if (failed > 0) return { rule, verdict: 'fail', why: `${failed} of ${checks.length} failed`, checks };
    if (judged === 0 && wide.length === 0) return { rule, verdict: 'fail', why: `none of ${checks.length} could be judged: ${checks[0]!.why}`, checks };
    if (wide.length > 0) {
      const warning = `passed with a warning: ${wide.length} of ${checks.length} ${wide[0]!.judgement} to judge`;
      return { rule, verdict: 'pass', why: judged === 0 ? `${warning}, none judged` : `${warning}, ${judged} passed`, checks };
    }
    return { rule, verdict: 'pass', why: judged === checks.length ? `${judged} passed` : `${judged} passed, ${checks.length - judged} not judged`, checks };
  });
  return {
    baselineRunIds: input.baseline.map((r) => r.id),
    nowRunIds: input.now.map((r) => r.id),
    rules: results,
    failed: results.some((r) => r.verdict === 'fail'),
  };
}
