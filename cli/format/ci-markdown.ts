import type { Diagnosis } from '../../contract/diagnosis.js';
import { mdText } from '../../contract/markdown-text.js';
import type { RegressionResult } from '../../contract/regression-rules.js';
import type { RunSummary } from '../../contract/results.js';
import type { ThresholdResult } from '../../contract/thresholds.js';
import { checkIntervalText, checkPlace, CONFIRM_WITH_REPEAT, ONE_RUN_NOISE, ruleChangeText, ruleValueText, sidesText, tooWideText } from '../../contract/regression-words.js';
import { judgedWithOneRun } from '../../contract/run-verdict.js';
import { diagnosisMarkdown } from './markdown-diagnosis.js';
import { passRateText, type CheckRow } from '../../contract/report/check-table.js';

// `--markdown FILE`: a summary fit for a pull-request comment or a GitHub job summary. Every string
// a user wrote (scenario, server, phase and endpoint names, rules, checks) is data: see mdText.

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const VERDICT = { pass: '✅ pass', fail: '❌ **fail**', unjudged: '➖ not judged' } as const;

export interface CiSummary {
  /** the scenario the runs ran */
  scenarioName: string;
  /** the runs judged (one, or a repeated group's) */
  runs: readonly Pick<RunSummary, 'id' | 'status' | 'quick'>[];
  thresholds: readonly ThresholdResult[];
  regression: RegressionResult | null;
  /** each run's diagnosis ("What happened"); absent (compare): no section */
  diagnoses?: readonly { runId: number; diagnosis: Diagnosis }[];
  /** each run's checks per endpoint (contract/report/check-table.ts); absent or empty: no section */
  checks?: readonly { runId: number; rows: readonly CheckRow[] }[];
}

/** The checks' table: each check of each endpoint with its passes, fails and pass rate (a failed one marked). */
function checksMarkdown(checks: NonNullable<CiSummary['checks']>): string[] {
  const several = checks.length > 1;
  const all = checks.flatMap((c) => c.rows.map((r) => ({ runId: c.runId, ...r })));
  if (all.length === 0) return [];
  const out = ['', row([...(several ? ['run'] : []), 'server / phase', 'endpoint', 'check', 'passes', 'fails', 'pass rate']), row([...(several ? ['---'] : []), '---', '---', '---', '---:', '---:', '---:'])];
  for (const r of all) out.push(row([...(several ? [`#${r.runId}`] : []), mdText(`${r.server} / ${r.phase}`), mdText(r.endpoint), mdText(r.check), String(r.passes), String(r.fails), r.fails > 0 ? `❌ ${passRateText(r.rate)}` : passRateText(r.rate)]));
  return out;
}

export function ciMarkdown(s: CiSummary): string {
  const failedThresholds = s.thresholds.filter((t) => !t.passed).length;
  const failedRules = s.regression?.rules.filter((r) => r.verdict === 'fail').length ?? 0;
  const ok = failedThresholds === 0 && failedRules === 0 && s.runs.every((r) => r.status === 'completed');
  const runs = s.runs.map((r) => `#${r.id}${r.status === 'completed' ? '' : ` (${r.status})`}`).join(', ');
  const tallies = [s.regression ? `${failedRules} of ${s.regression.rules.length} regression rules failed` : null, s.thresholds.length > 0 ? `${failedThresholds} of ${s.thresholds.length} thresholds failed` : null].filter((x) => x !== null);
  const notCompleted = s.runs.filter((r) => r.status !== 'completed').length;
  const out = [
    `### ${ok ? '✅' : '❌'} Loadscope: ${mdText(s.scenarioName)}${s.runs[0]?.quick ? ' (quick)' : ''}`,
    '',
    `Run${s.runs.length === 1 ? '' : 's'} ${runs}${s.regression ? ` against the baseline (${sidesText(s.regression)})` : ''}: ` +
      `${tallies.length > 0 ? tallies.join(', ') : 'no thresholds or regression rules to judge'}${notCompleted > 0 ? `; ${notCompleted} did not complete` : ''}.`,
  ];
  if (s.regression && s.regression.rules.length > 0) {
    out.push('', row(['rule', 'server / phase', 'baseline', 'now', 'change', '95 % interval', 'verdict']), row(['---', '---', '---:', '---:', '---:', '---:', '---']));
    for (const r of s.regression.rules) {
      if (r.checks.length === 0) out.push(row([mdText(r.rule.text), '-', '-', '-', '-', '-', `${VERDICT.fail}: ${mdText(r.why)}`]));
      for (const c of r.checks) {
        const wide = tooWideText(c);
        out.push(row([mdText(r.rule.text), mdText(checkPlace(c)), ruleValueText(r.rule, c.baseline), ruleValueText(r.rule, c.now), ruleChangeText(r.rule, c.change), checkIntervalText(r.rule, c), wide === null ? VERDICT[c.verdict] : `⚠️ ${wide}: passes`]));
      }
    }
    // each failed check with its reason (a failed phase rule names the endpoint that moved most)
    for (const r of s.regression.rules) for (const c of r.checks.filter((x) => x.verdict === 'fail')) out.push('', `❌ ${mdText(r.rule.text)} at ${mdText(checkPlace(c))}: ${mdText(c.why)}`);
    out.push('', '<sub>A rule fails only when the change is beyond its margin and beyond the noise: its 95 % interval lies wholly past the margin. One too wide to judge (too short / too variable, as Compare says) passes with a warning.</sub>');
    // one run against one: say what the verdict rests on and how to confirm it
    if (judgedWithOneRun(s.regression)) out.push('', `> ⚠️ ${mdText(`${ONE_RUN_NOISE}; ${CONFIRM_WITH_REPEAT}.`)}`);
  }
  if (s.thresholds.length > 0) {
    out.push('', row(['threshold', 'server / phase', 'measured', 'verdict']), row(['---', '---', '---:', '---']));
    for (const t of s.thresholds) {
      const place = `${t.server} / ${t.phase}${t.request ? ` / ${t.request}` : ''}`;
      out.push(row([mdText(t.check), mdText(place), t.measured === null ? '-' : String(Number(t.measured.toPrecision(4))), t.passed ? VERDICT.pass : VERDICT.fail]));
    }
  }
  out.push(...checksMarkdown(s.checks ?? []));
  const diagnoses = s.diagnoses ?? [];
  for (const { runId, diagnosis } of diagnoses) out.push('', ...diagnosisMarkdown(diagnosis, diagnoses.length > 1 ? runId : null));
  return out.join('\n') + '\n';
}
