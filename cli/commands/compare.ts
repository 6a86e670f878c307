import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { compareJson, formatCompare } from '../format/compare.js';
import { dbOption, parseRunId, withEngine } from '../options.js';

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('stored runs side by side, paired by server, matrix cell and phase name, with ratios to the first and whether each is beyond the noise')
    .argument('<runs...>', 'two or more run ids (see `loadscope list`)')
    .option('--json', 'print JSON', false)
    .addOption(dbOption())
    .action(async (ids: string[], opts: { json: boolean; db?: string }) => {
      const runIds = ids.map(parseRunId);
      if (runIds.length < 2) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'compare needs at least two run ids');
      await withEngine(opts.db, async (engine) => {
        const result = await engine.handlers['runs:compare']({ runIds });
        if (opts.json) return void process.stdout.write(JSON.stringify(compareJson(result), null, 2) + '\n');
        process.stdout.write(formatCompare(result) + '\n');
      });
    });
}
