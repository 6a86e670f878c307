import { Option, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { ParsedCallRequest } from '../../contract/api.js';
import { resolveScenarioFile } from '../../engine/scenario/load.js';
import { exampleNames, examplePath } from '../../engine/scenario/examples.js';
import { LoadscopeError } from '../../contract/errors.js';
import { groupFigures } from '../../contract/group-stats.js';
import { RUN_ENGINES, type RunEngine, type RunStatus, type RunSummary } from '../../contract/results.js';
import { REGRESSION_FAILED_EXIT_CODE, THRESHOLD_FAILED_EXIT_CODE } from '../../contract/thresholds.js';
import { parseRegressionRules, type RegressionResult } from '../../contract/regression-rules.js';
import { collectRule, writeCiFiles } from '../ci-output.js';
import { resolveBaseline, type BaselineChoice } from '../baseline-choice.js';
import { formatRegression, regressionJson } from '../format/regression.js';
import { formatExplanation } from '../format/compare-explanation.js';
import type { DifferenceFinding } from '../../contract/compare-explanation.js';
import { capacityJson, formatCapacity, storedCapacity } from '../format/capacity.js';
import { formatGroup, groupJson } from '../format/group.js';
import { formatReportTables } from '../format/report.js';
import { formatRunSummary, runSummaryJson } from '../format/run-summary.js';
import { collectSet, dbOption, parseRepeat, parseRunId, withEngine } from '../options.js';
import { refuseExisting } from '../output-file.js';
import { attachProgress } from '../progress.js';
import { cancelReason, onStopSignal, signalExitCode, type StopSignal } from '../signals.js';
import type { Diagnosis } from '../../contract/diagnosis.js';
import { diagnosisJson, formatDiagnosisTop } from '../format/diagnosis.js';
import { checkRows } from '../../contract/report/check-table.js';
import { MAX_RUN_INSTANCES } from '../../contract/instances.js';
import { checkedInstances } from '../../engine/k6/instance-segments.js';

interface RunCliOptions {
  quick: boolean;
  json: boolean;
  set: Record<string, string>;
  allowRemote: boolean;
  allowCommands: boolean;
  allowFiles: boolean;
  engine: RunEngine;
  /** --engine k6: k6 processes at once, each with its execution segment */
  instances?: number;
  db?: string;
  fromRun?: number;
  example?: string;
  repeat: number;
  /** true: the scenario's pinned baseline; a number: that run */
  baseline?: BaselineChoice;
  failOn: string[];
  markdown?: string;
  junit?: string;
  force: boolean;
}

/** The rules `--baseline` judges when no --fail-on is given: the issue's own three. */
export const DEFAULT_RULES = ['total.p99 > +10%', 'throughput < -5%', 'errors.rate > +0.01'] as const;

/** `--instances N`: a whole number from 1 to MAX_RUN_INSTANCES, else one line saying so. */
function parseInstances(value: string): number {
  return checkedInstances(/^\d{1,3}$/.test(value.trim()) ? Number(value) : NaN, value);
}

function parseBaselineOption(value: string): number {
  return parseRunId(value);
}


/** A file is read here (the engine takes names and text, never paths); a name goes as it is. */
function runSource(ref: string | undefined, opts: Pick<RunCliOptions, 'fromRun' | 'example'>): ParsedCallRequest<'runs:start'>['scenario'] {
  const given = [ref !== undefined && 'a scenario', opts.fromRun !== undefined && '--from-run', opts.example !== undefined && '--example'].filter((g) => g !== false);
  if (given.length > 1) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `give one of a scenario, --from-run or --example, not ${given.join(' and ')}`);
  if (opts.fromRun !== undefined) return { runId: opts.fromRun };
  // an example runs as the package's file: its data files are found beside it, from any folder
  const path = opts.example !== undefined ? examplePath(opts.example) : ref === undefined ? undefined : resolveScenarioFile(ref);
  if (path !== undefined) return { text: readFileSync(path, 'utf8'), origin: path };
  if (ref === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'which scenario? give a file, a name (see `loadscope scenarios`), --example <name> or --from-run <run>');
  return { name: ref };
}

/** 0 completed (every threshold and rule passed), 1 failed, 130 cancelled, 99 a threshold failed, 98 a regression rule failed. */
export function runExitCode(status: RunStatus, thresholdsFailed: boolean, regressionFailed = false): number {
  if (status === 'cancelled') return 130;
  if (status !== 'completed') return 1;
  if (thresholdsFailed) return THRESHOLD_FAILED_EXIT_CODE;
  return regressionFailed ? REGRESSION_FAILED_EXIT_CODE : 0;
}

const EXIT_CODES_HELP = `
Exit codes:
  0    the run completed and every threshold passed
  1    the run failed (a server did not start or crashed, or the run could not be stored)
  2    bad usage or an invalid scenario
  ${THRESHOLD_FAILED_EXIT_CODE}   the run completed but a threshold failed (gate CI on this)
  ${REGRESSION_FAILED_EXIT_CODE}   the run completed, every threshold passed, but a --baseline rule failed (a regression)
  130  cancelled (Ctrl-C)`;

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run a scenario (a file, or a built-in or library name), store it, and print its summary')
    .argument('[scenario]', 'a scenario file (.json), or a built-in or library name (see `loadscope scenarios`)')
    .option('--from-run <run>', "run a stored run's scenario again (its own text, quick and --set)", parseRunId)
    .option('--example <name>', `run one of the examples that ship with Loadscope, from any folder: ${exampleNames().join(', ') || '(none)'}`)
    .option('--quick', "use the scenario's quick profile (smaller sizes, same shape)", false)
    .option('--json', 'print one JSON document instead of tables', false)
    .option('--repeat <n>', "run it n times (1-50), one after another, stored as one group; prints each figure's mean with its 95 % interval across the runs", parseRepeat, 1)
    .option('--set <path=value>', 'override a scenario value, e.g. --set phases[0].count=50 (repeatable)', collectSet, {})
    .option('--allow-remote', 'consent to send load to a target outside this machine (named in the scenario)', false)
    .option('--allow-commands', "consent to run the scenario's external server commands", false)
    .option('--allow-files', "consent to read files outside the scenario's folder (data files, tls.ca/cert/key; named when refused)", false)
    .option('--baseline [run]', `judge the run against the scenario's pinned baseline (\`loadscope baseline set\`), or against this run; put it after the scenario. Rules: --fail-on, else ${DEFAULT_RULES.map((r) => `"${r}"`).join(', ')}`, parseBaselineOption)
    .option('--fail-on <rule>', 'a regression rule for --baseline, e.g. "total.p99 > +10%", "throughput < -5% phase=steady", "errors.rate > +0.01 server=single" (repeatable; docs/ci.md)', collectRule, [])
    .option('--markdown <file>', 'write a Markdown summary (thresholds, rules with --baseline, and what happened: the diagnosis) for a pull-request comment or job summary')
    .option('--junit <file>', 'write a JUnit XML file: each threshold and rule a test case')
    .option('--force', 'replace --markdown / --junit files that already exist', false)
    .addOption(new Option('--engine <engine>', 'who sends the load: native (Loadscope\'s driver) or k6 (a local k6 binary)').choices(RUN_ENGINES).default('native'))
    .option('--instances <n>', `with --engine k6: run the load in N k6 processes at once (1 to ${MAX_RUN_INSTANCES}), each with its execution segment; figures merged, thresholds judged on the merge`, parseInstances)
    .addOption(dbOption())
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (scenario: string | undefined, opts: RunCliOptions) => {
      const source = runSource(scenario, opts);
      if (opts.instances !== undefined && opts.engine !== 'k6') throw new LoadscopeError('LS_ERR_BAD_REQUEST', '--instances runs several k6 processes: add --engine k6');
      if (opts.failOn.length > 0 && opts.baseline === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', '--fail-on judges against a baseline: add --baseline (the pinned one) or --baseline RUN');
      const rules = opts.baseline === undefined ? [] : parseRegressionRules(opts.failOn.length > 0 ? opts.failOn : DEFAULT_RULES);
      refuseExisting([opts.markdown, opts.junit], opts.force);
      let stoppedBy: StopSignal | null = null;
      const status = await withEngine(opts.db, async (engine) => {
        // the baseline is found before any load is sent: a missing one is bad usage, not a failed run
        const baseline = opts.baseline === undefined ? null : await resolveBaseline(engine, source, opts.quick, opts.baseline);
        const runs: RunSummary[] = [];
        // one run after another; a signal, a failed or a cancelled run ends the repeats, keeping what ran
        for (let i = 0; i < opts.repeat && stoppedBy === null; i++) {
          if (opts.repeat > 1) process.stderr.write(`run ${i + 1} of ${opts.repeat}\n`);
          const detach = attachProgress(engine, process.stderr);
          let runId: number;
          try {
            const consent = { allowRemote: opts.allowRemote, allowCommands: opts.allowCommands, allowFiles: opts.allowFiles };
            ({ runId } = await engine.startRun(source, { quick: opts.quick, set: opts.set, consent, engine: opts.engine, ...(opts.instances !== undefined && { instances: opts.instances }) }));
          } catch (err) {
            detach();
            throw err;
          }
          // Ctrl-C, SIGTERM and SIGHUP cancel cleanly: what was measured is kept, the servers are
          // stopped and the run is stored as cancelled naming the signal.
          const offSignals = onStopSignal((signal) => {
            stoppedBy ??= signal;
            void engine.handlers['runs:cancel']({ runId, reason: cancelReason(signal) });
          });
          try {
            await engine.waitForRun(runId);
          } finally {
            detach();
            // A signal during the summary below still finds a handler (and is ignored) rather than killing us.
            offSignals();
            onStopSignal(() => undefined);
          }
          const run = await engine.handlers['runs:get']({ runId });
          runs.push(run);
          if (run.status !== 'completed') break;
        }
        const groupId = runs.length > 1 ? (await engine.handlers['runs:group']({ runIds: runs.map((r) => r.id) })).groupId : null;
        const json: unknown[] = [];
        const diagnoses: { runId: number; diagnosis: Diagnosis }[] = [];
        for (const stored of runs) {
          const run = groupId === null ? stored : await engine.handlers['runs:get']({ runId: stored.id });
          const capacity = await storedCapacity(run, () => engine.handlers['runs:windows']({ runId: run.id }));
          const diagnosis = await engine.handlers['runs:diagnosis']({ runId: run.id });
          diagnoses.push({ runId: run.id, diagnosis });
          if (opts.json) json.push({ ...runSummaryJson(run), ...(capacity && { capacity: capacityJson(capacity) }), diagnosis: diagnosisJson(diagnosis) });
          else {
            process.stdout.write(formatRunSummary(run) + '\n');
            if (capacity && capacity.length > 0) process.stdout.write('\n' + formatCapacity(capacity) + '\n');
            if (run.report.length > 0) process.stdout.write('\n' + formatReportTables(run.report) + '\n');
            process.stdout.write('\n' + formatDiagnosisTop(run.id, diagnosis) + '\n');
          }
        }
        const figures = groupId === null ? [] : groupFigures(runs);
        const worst = runs.find((r) => r.status !== 'completed')?.status ?? 'completed';
        let regression: RegressionResult | null = null;
        let explanation: DifferenceFinding[] | null = null;
        if (baseline !== null && worst === 'completed' && runs.length > 0) {
          // judged and kept with the runs: History, the run's page, its exports and Trends show it too
          const { judgeAndKeep } = await import('../../engine/export/regression-data.js');
          const baselineIds = baseline.runIds(runs[0]!);
          // one run against one: Compare's comparison, built once, judges the rules with its intervals and says what moved
          const comparison = baselineIds.length === 1 && runs.length === 1 ? await engine.handlers['runs:compare']({ runIds: [baselineIds[0]!, runs[0]!.id] }) : undefined;
          const judged = judgeAndKeep(engine.store, baselineIds, runs.map((r) => r.id), rules, comparison);
          regression = judged.result;
          explanation = comparison?.explanation ?? null;
          if (judged.unkept !== null) process.stderr.write(`warning: the regression verdict was not kept with the run (History and exports will not show it): ${judged.unkept}\n`);
        }
        if (opts.json) {
          const doc = groupId === null ? json[0] : { group: { id: groupId, runIds: runs.map((r) => r.id), figures: groupJson(figures) }, runs: json };
          process.stdout.write(JSON.stringify(regression === null ? doc : { ...(doc as object), regression: regressionJson(regression), ...(explanation !== null && { explanation }) }, null, 2) + '\n');
        } else if (groupId !== null) {
          process.stdout.write('\n' + formatGroup(groupId, runs.map((r) => r.id), figures) + '\n');
        }
        if (regression !== null && !opts.json) process.stdout.write('\n' + formatRegression(regression) + '\n');
        if (explanation !== null && !opts.json) process.stdout.write('\n' + formatExplanation(explanation).join('\n') + '\n');
        if (runs.length > 0) writeCiFiles(opts, { scenarioName: runs[0]!.scenarioName, runs, thresholds: runs.flatMap((r) => r.thresholds), regression, diagnoses, checks: runs.map((r) => ({ runId: r.id, rows: checkRows(r) })) });
        return { status: worst, thresholdsFailed: runs.some((r) => r.thresholds.some((t) => !t.passed)), regressionFailed: regression?.failed ?? false };
      });
      if (stoppedBy !== null) process.exitCode = signalExitCode(stoppedBy);
      else process.exitCode = runExitCode(status.status, status.thresholdsFailed, status.regressionFailed);
    });
}
