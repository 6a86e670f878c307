import { z } from 'zod';

// A run's regression verdict as it is stored with the run (db/verdict-store.ts) and read back by every
// view that shows its thresholds: History, the run's page, the HTML and PNG exports, Trends. It is
// what `loadscope run --baseline` judged (engine/compare/regression.ts), kept so the exit code 98
// is never the only place a regression is told. Zod only: contract/results.ts carries it, and the
// rules' grammar (contract/regression-rules.ts) sits above results.ts, so metric is a plain string here.

/** At most this many checks of a rule are kept: the failed ones first, the largest move first. */
export const MAX_STORED_CHECKS = 8;
/** At most this many rules (regression-rules.ts MAX_RULES) and runs per side (`--repeat` is 1-50). */
const MAX_RULES = 50;
const MAX_RUNS = 50;
const TEXT_MAX = 2000;

const Interval = z.object({ low: z.number(), high: z.number() });

/** The endpoint of a split phase that moved most the worse way, named by a failed phase check. */
export const EndpointMove = z.object({ endpoint: z.string().max(TEXT_MAX), baseline: z.number(), now: z.number(), change: z.number() });
export type EndpointMove = z.infer<typeof EndpointMove>;

export const VerdictCheck = z.object({
  server: z.string().max(TEXT_MAX),
  phase: z.string().max(TEXT_MAX),
  endpoint: z.string().max(TEXT_MAX).nullable(),
  baseline: z.number().nullable(),
  now: z.number().nullable(),
  change: z.number().nullable(),
  interval: Interval.nullable(),
  judgement: z.enum(['beyond', 'within', 'too variable', 'too short']).nullable(),
  verdict: z.enum(['pass', 'fail', 'unjudged']),
  why: z.string().max(TEXT_MAX),
  movedMost: EndpointMove.nullable().default(null),
});
export type VerdictCheck = z.infer<typeof VerdictCheck>;

export const VerdictRule = z.object({
  /** the rule as written, e.g. "total.p99 > +10%" */
  rule: z.string().max(TEXT_MAX),
  metric: z.string().max(100),
  relative: z.boolean(),
  verdict: z.enum(['pass', 'fail']),
  why: z.string().max(TEXT_MAX),
  /** how many checks the rule made; `checks` keeps at most MAX_STORED_CHECKS of them */
  checkCount: z.number().int().min(0),
  checks: z.array(VerdictCheck).max(MAX_STORED_CHECKS),
});
export type VerdictRule = z.infer<typeof VerdictRule>;

export const RunVerdict = z.object({
  /** the baseline's runs and the runs judged (one, or a repeated group's) */
  baselineRunIds: z.array(z.number().int()).min(1).max(MAX_RUNS),
  nowRunIds: z.array(z.number().int()).min(1).max(MAX_RUNS),
  failed: z.boolean(),
  rules: z.array(VerdictRule).max(MAX_RULES),
  judgedAt: z.string().max(100),
});
export type RunVerdict = z.infer<typeof RunVerdict>;

/** History's line of a run's verdict: rules failed of rules judged; oneRun: one run judged against one. */
export const RegressionTally = z.object({ failed: z.number().int(), rules: z.number().int(), oneRun: z.boolean() }).nullable();
export type RegressionTally = z.infer<typeof RegressionTally>;

/** One run judged against one baseline run: its verdict rests on each run's own noise alone. */
export function judgedWithOneRun(v: Pick<RunVerdict, 'baselineRunIds' | 'nowRunIds'>): boolean {
  return v.baselineRunIds.length === 1 && v.nowRunIds.length === 1;
}

export function regressionTally(v: RunVerdict | null): RegressionTally {
  return v === null ? null : { failed: v.rules.filter((r) => r.verdict === 'fail').length, rules: v.rules.length, oneRun: judgedWithOneRun(v) };
}

/** A completed run whose regression verdict failed: History, its page and `list` say so, not a green "completed". */
export function regressionFailed(status: string, tally: RegressionTally | undefined): boolean {
  return status === 'completed' && tally != null && tally.failed > 0;
}
