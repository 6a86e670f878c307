import type { CompareResult } from '../../contract/api.js';
import type { RegressionResult, RegressionRule, RuleCheck } from '../../contract/regression-rules.js';
import { MAX_STORED_CHECKS, type RunVerdict, type VerdictCheck } from '../../contract/run-verdict.js';
import type { RunReader, RunWriter } from '../../db/store.js';
import { judgeRegression } from '../compare/regression.js';

/**
 * Regression rules judged from the store: the baseline's runs against now's (each one run, or a
 * repeated group's runs), with Compare's samples (live windows, each server run's compare sample kept at its end).
 * `comparison`: the Compare a command already built; when it is of exactly these two runs, its
 * intervals are the ones judged (the same seeded bootstrap, not made twice).
 */
export function regressionData(store: RunReader, baselineIds: readonly number[], nowIds: readonly number[], rules: readonly RegressionRule[], comparison?: Pick<CompareResult, 'runs' | 'intervals'>): RegressionResult {
  const ids = [baselineIds[0]!, nowIds[0]!];
  const windows = new Map<number, ReturnType<RunReader['getWindows']>['windows']>();
  const sameRuns = comparison !== undefined && baselineIds.length === 1 && nowIds.length === 1 && comparison.runs.length === 2 && comparison.runs.every((r, i) => r.id === ids[i]);
  return judgeRegression(rules, {
    ...(sameRuns && { intervals: comparison.intervals }),
    baseline: baselineIds.map((id) => store.getRun(id)),
    now: nowIds.map((id) => store.getRun(id)),
    samples: {
      windows: (i) => {
        if (!windows.has(i)) windows.set(i, store.getWindows(ids[i]!).windows);
        return windows.get(i)!;
      },
      rows: (_i, targetId) => store.getCompareRows(targetId),
    },
  });
}

const ORDER = { fail: 0, unjudged: 1, pass: 2 } as const;

/** The checks a stored rule keeps: failed first, the largest move the worse way first, at most MAX_STORED_CHECKS. */
function keptChecks(rule: RegressionRule, checks: readonly RuleCheck[]): VerdictCheck[] {
  const worse = (c: RuleCheck) => (c.change === null ? -Infinity : rule.op === '>' ? c.change : -c.change);
  return [...checks]
    .sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict] || worse(b) - worse(a))
    .slice(0, MAX_STORED_CHECKS)
    .map((c) => ({ server: c.server, phase: c.phase, endpoint: c.endpoint, baseline: c.baseline, now: c.now, change: c.change, interval: c.interval, judgement: c.judgement, verdict: c.verdict, why: c.why, movedMost: c.movedMost ?? null }));
}

/** A judged result as it is stored with its runs (contract/run-verdict.ts). */
export function runVerdictOf(result: RegressionResult, judgedAt = new Date().toISOString()): RunVerdict {
  return {
    baselineRunIds: result.baselineRunIds,
    nowRunIds: result.nowRunIds,
    failed: result.failed,
    rules: result.rules.map((r) => ({ rule: r.rule.text, metric: r.rule.metric, relative: r.rule.relative, verdict: r.verdict, why: r.why, checkCount: r.checks.length, checks: keptChecks(r.rule, r.checks) })),
    judgedAt,
  };
}

/**
 * Judges the runs against the baseline and keeps the verdict with them (`run --baseline`), so History,
 * the run's page, its exports and Trends show what the exit code said. A store that will not take it
 * (a full disk) does not take the verdict from CI: `unkept` says why it was not kept. `comparison`: as
 * regressionData's (the command's Compare of the two runs, whose intervals are then judged).
 */
export function judgeAndKeep(store: RunReader & RunWriter, baselineIds: readonly number[], nowIds: readonly number[], rules: readonly RegressionRule[], comparison?: Pick<CompareResult, 'runs' | 'intervals'>): { result: RegressionResult; unkept: string | null } {
  const result = regressionData(store, baselineIds, nowIds, rules, comparison);
  try {
    store.saveVerdict(runVerdictOf(result));
    return { result, unkept: null };
  } catch (err) {
    return { result, unkept: err instanceof Error ? err.message : String(err) };
  }
}
