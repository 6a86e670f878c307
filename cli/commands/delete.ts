import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { dbOption, parseRunId, withEngine } from '../options.js';

export function registerDelete(program: Command): void {
  program
    .command('delete')
    .description('delete a stored run and everything measured in it')
    .argument('<run>', 'run id (see `loadscope list`)', parseRunId)
    .addOption(dbOption())
    .action(async (runId: number, opts: { db?: string }) => {
      await withEngine(opts.db, async (engine) => {
        // Not read first: a damaged run (that cannot be read) must still be deletable.
        const { deleted } = await engine.handlers['runs:delete']({ runId });
        if (!deleted) throw new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no run ${runId}; \`loadscope list\` shows the stored runs`);
        process.stdout.write(`deleted run ${runId}\n`);
      });
    });
}
