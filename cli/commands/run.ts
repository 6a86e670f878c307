import { Option, type Command } from 'commander';
import { RUN_ENGINES, type RunEngine } from '../../contract/results.js';
import { formatReportTables } from '../format/report.js';
import { formatRunSummary, runSummaryJson } from '../format/run-summary.js';
import { collectSet, dbOption, withEngine } from '../options.js';
import { attachProgress } from '../progress.js';

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run a scenario (a file or a built-in name), store it, and print its summary')
    .argument('<scenario>', 'a scenario file (.json) or a built-in name (see `loadscope scenarios`)')
    .option('--quick', "use the scenario's quick profile (smaller sizes, same shape)", false)
    .option('--json', 'print one JSON document instead of tables', false)
    .option('--set <path=value>', 'override a scenario value, e.g. --set phases[0].count=50 (repeatable)', collectSet, {})
    .addOption(new Option('--engine <engine>', 'who sends the load: native (Loadscope\'s driver) or k6 (a local k6 binary)').choices(RUN_ENGINES).default('native'))
    .addOption(dbOption())
    .action(async (scenario: string, opts: { quick: boolean; json: boolean; set: Record<string, string>; engine: RunEngine; db?: string }) => {
      const status = await withEngine(opts.db, async (engine) => {
        const detach = attachProgress(engine, process.stderr);
        let runId: number;
        try {
          ({ runId } = await engine.handlers['runs:start']({ scenario: { name: scenario }, quick: opts.quick, set: opts.set, engine: opts.engine }));
        } catch (err) {
          detach();
          throw err;
        }
        // Ctrl-C cancels cleanly: the servers are stopped and the run is stored as cancelled.
        const onSigint = () => void engine.handlers['runs:cancel']({ runId });
        process.on('SIGINT', onSigint);
        try {
          await engine.waitForRun(runId);
        } finally {
          process.off('SIGINT', onSigint);
          detach();
        }
        const run = await engine.handlers['runs:get']({ runId });
        if (opts.json) {
          process.stdout.write(JSON.stringify(runSummaryJson(run), null, 2) + '\n');
        } else {
          process.stdout.write(formatRunSummary(run) + '\n');
          if (run.report.length > 0) process.stdout.write('\n' + formatReportTables(run.report) + '\n');
        }
        return run.status;
      });
      if (status === 'cancelled') process.exitCode = 130;
      else if (status !== 'completed') process.exitCode = 1;
    });
}
