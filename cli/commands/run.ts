import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { formatReportTables } from '../format/report.js';
import { formatRunSummary, runSummaryJson } from '../format/run-summary.js';
import { dbOption, withEngine } from '../options.js';
import { attachProgress } from '../progress.js';
import { cancelReason, onStopSignal, signalExitCode, type StopSignal } from '../signals.js';

interface RunCliOptions {
  quick: boolean;
  json: boolean;
  set: Record<string, string>;
  allowRemote: boolean;
  allowCommands: boolean;
  db?: string;
}

function collectSet(value: string, previous: Record<string, string>): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--set takes path=value, got '${value}'`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run a scenario (a file or a built-in name), store it, and print its summary')
    .argument('<scenario>', 'a scenario file (.json) or a built-in name (see `loadscope scenarios`)')
    .option('--quick', "use the scenario's quick profile (smaller sizes, same shape)", false)
    .option('--json', 'print one JSON document instead of tables', false)
    .option('--set <path=value>', 'override a scenario value, e.g. --set phases[0].count=50 (repeatable)', collectSet, {})
    .option('--allow-remote', 'consent to send load to a target outside this machine (named in the scenario)', false)
    .option('--allow-commands', "consent to run the scenario's external server commands", false)
    .addOption(dbOption())
    .action(async (scenario: string, opts: RunCliOptions) => {
      let stoppedBy: StopSignal | null = null;
      const status = await withEngine(opts.db, async (engine) => {
        const detach = attachProgress(engine, process.stderr);
        let runId: number;
        try {
          const consent = { allowRemote: opts.allowRemote, allowCommands: opts.allowCommands };
          ({ runId } = await engine.startRun({ name: scenario }, { quick: opts.quick, set: opts.set, consent }));
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
        if (opts.json) {
          process.stdout.write(JSON.stringify(runSummaryJson(run), null, 2) + '\n');
        } else {
          process.stdout.write(formatRunSummary(run) + '\n');
          if (run.report.length > 0) process.stdout.write('\n' + formatReportTables(run.report) + '\n');
        }
        return run.status;
      });
      if (stoppedBy !== null) process.exitCode = signalExitCode(stoppedBy);
      else if (status === 'cancelled') process.exitCode = 130;
      else if (status !== 'completed') process.exitCode = 1;
    });
}
