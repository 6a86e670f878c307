import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { parseRegressionRules, type RegressionRule } from '../../contract/regression-rules.js';
import { REGRESSION_FAILED_EXIT_CODE } from '../../contract/thresholds.js';
import { checkRows } from '../../contract/report/check-table.js';
import { compareJson, formatCompare } from '../format/compare.js';
import { formatRegression, regressionJson } from '../format/regression.js';
import { collectRule, writeCiFiles } from '../ci-output.js';
import { dbOption, parseRunId, withEngine } from '../options.js';
import { refuseExisting, writeOutput } from '../output-file.js';

interface CompareCliOptions {
  json: boolean;
  html?: string;
  csv?: string;
  failOn: string[];
  markdown?: string;
  junit?: string;
  force: boolean;
  db?: string;
}

type Engine = import('../../engine/engine.js').Engine;

/**
 * Every output of one `compare`: the files, the CI files, the table or JSON, the rules' verdict.
 * The comparison (its seeded bootstrap, the costly part) is built once here and handed to each of
 * them; the rules reuse its intervals when they judge the same two runs. True when a rule failed.
 */
export async function compareOutputs(engine: Engine, runIds: readonly number[], rules: readonly RegressionRule[], opts: Omit<CompareCliOptions, 'failOn' | 'db'>): Promise<boolean> {
  const comparison = await engine.handlers['runs:compare']({ runIds: [...runIds] });
  for (const [format, target] of [['html', opts.html], ['csv', opts.csv]] as const) {
    if (!target) continue;
    // on demand: the exporters load the HTML report and canvas, which the table does not need
    const { compareExport } = await import('../../engine/export/export-run.js');
    writeOutput(target, (await compareExport(engine.store, runIds, format, comparison)).bytes, opts.force);
    process.stdout.write(`wrote ${target}\n`);
  }
  const wantsTable = !opts.html && !opts.csv;
  const { regressionData } = await import('../../engine/export/regression-data.js');
  const [a, b] = [runIds[0]!, runIds[1]!];
  const regression = rules.length === 0 ? null : regressionData(engine.store, engine.store.baselines.standingFor(a), engine.store.baselines.standingFor(b), rules, comparison);
  const judged = regression ? regression.nowRunIds.map((id) => engine.store.getRun(id)) : [engine.store.getRun(b)];
  writeCiFiles(opts, { scenarioName: judged[0]!.scenarioName, runs: judged, thresholds: judged.flatMap((r) => r.thresholds), regression, checks: judged.map((r) => ({ runId: r.id, rows: checkRows(r) })) });
  if (wantsTable || regression) {
    if (opts.json) process.stdout.write(JSON.stringify({ ...compareJson(comparison), ...(regression && { regression: regressionJson(regression) }) }, null, 2) + '\n');
    else process.stdout.write(formatCompare(comparison) + '\n' + (regression ? '\n' + formatRegression(regression) + '\n' : ''));
  }
  return regression?.failed ?? false;
}

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('stored runs side by side, paired by server, matrix cell and phase name, with ratios to the first and whether each is beyond the noise')
    .argument('<runs...>', 'two or more run ids (see `loadscope list`); with --fail-on exactly two: the baseline, then the run judged')
    .option('--json', 'print JSON', false)
    .option('--html <file>', 'write the comparison as one self-contained HTML report')
    .option('--csv <file>', 'write the paired table (one row per server, phase and metric; ratios to the first run) as CSV')
    .option('--fail-on <rule>', 'a regression rule, e.g. "total.p99 > +10%", "throughput < -5% phase=steady", "errors.rate > +0.01" (repeatable; docs/ci.md); exit 98 when one fails', collectRule, [])
    .option('--markdown <file>', 'write a Markdown summary (rules and the second run\'s thresholds) for a pull-request comment or job summary')
    .option('--junit <file>', 'write a JUnit XML file: each threshold and rule a test case')
    .option('--force', 'replace files that already exist', false)
    .addOption(dbOption())
    .addHelpText('after', `\nExit codes:\n  0    compared (every --fail-on rule passed)\n  2    bad usage\n  ${REGRESSION_FAILED_EXIT_CODE}   a --fail-on rule failed: the second run regressed beyond its margin and the noise\n\nA run of a repeated group (run --repeat) stands for its whole group in --fail-on's verdict.`)
    .action(async (ids: string[], opts: CompareCliOptions) => {
      const runIds = ids.map(parseRunId);
      if (runIds.length < 2) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'compare needs at least two run ids');
      const rules = parseRegressionRules(opts.failOn);
      if (rules.length > 0 && runIds.length !== 2) throw new LoadscopeError('LS_ERR_BAD_REQUEST', '--fail-on judges one run against one baseline: give exactly two run ids (the baseline first)');
      refuseExisting([opts.html, opts.csv, opts.markdown, opts.junit], opts.force);
      const failed = await withEngine(opts.db, (engine) => compareOutputs(engine, runIds, rules, opts));
      if (failed) process.exitCode = REGRESSION_FAILED_EXIT_CODE;
    });
}
