import type { Command } from 'commander';
import { capacityJson, formatCapacity, storedCapacity } from '../format/capacity.js';
import { formatReportTables } from '../format/report.js';
import { formatRunSummary, runSummaryJson } from '../format/run-summary.js';
import { dbOption, parseRunId, withEngine } from '../options.js';

export function registerShow(program: Command): void {
  program
    .command('show')
    .description("print a stored run's per-phase figures and its report tables")
    .argument('<run>', 'run id (see `loadscope list`)', parseRunId)
    .option('--json', 'print one JSON document', false)
    .addOption(dbOption())
    .action(async (runId: number, opts: { json: boolean; db?: string }) => {
      await withEngine(opts.db, async (engine) => {
        const run = await engine.handlers['runs:get']({ runId });
        // a capacity search's figures, judged from the stored steps the way the engine judged them
        const capacity = await storedCapacity(run, () => engine.handlers['runs:windows']({ runId }));
        if (opts.json) return void process.stdout.write(JSON.stringify({ ...runSummaryJson(run), ...(capacity && { capacity: capacityJson(capacity) }) }, null, 2) + '\n');
        process.stdout.write(formatRunSummary(run) + '\n');
        if (capacity && capacity.length > 0) process.stdout.write('\n' + formatCapacity(capacity) + '\n');
        if (run.report.length > 0) process.stdout.write('\n' + formatReportTables(run.report) + '\n');
      });
    });
}
