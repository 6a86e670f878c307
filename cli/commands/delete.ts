import type { Command } from 'commander';
import { dbOption, parseRunId, withEngine } from '../options.js';

export function registerDelete(program: Command): void {
  program
    .command('delete')
    .description('delete a stored run and everything measured in it')
    .argument('<run>', 'run id (see `loadscope list`)', parseRunId)
    .addOption(dbOption())
    .action(async (runId: number, opts: { db?: string }) => {
      await withEngine(opts.db, async (engine) => {
        await engine.handlers['runs:get']({ runId }); // a missing run is an error with a reason, not a silent no-op
        await engine.handlers['runs:delete']({ runId });
        process.stdout.write(`deleted run ${runId}\n`);
      });
    });
}
