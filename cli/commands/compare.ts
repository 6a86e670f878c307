import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { compareExport } from '../../engine/export/export-run.js';
import { compareJson, formatCompare } from '../format/compare.js';
import { dbOption, parseRunId, withEngine } from '../options.js';
import { refuseExisting, writeOutput } from '../output-file.js';

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('stored runs side by side, paired by server, matrix cell and phase name, with ratios to the first and whether each is beyond the noise')
    .argument('<runs...>', 'two or more run ids (see `loadscope list`)')
    .option('--json', 'print JSON', false)
    .option('--html <file>', 'write the comparison as one self-contained HTML report')
    .option('--csv <file>', 'write the paired table (one row per server, phase and metric; ratios to the first run) as CSV')
    .option('--force', 'replace files that already exist', false)
    .addOption(dbOption())
    .action(async (ids: string[], opts: { json: boolean; html?: string; csv?: string; force: boolean; db?: string }) => {
      const runIds = ids.map(parseRunId);
      if (runIds.length < 2) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'compare needs at least two run ids');
      await withEngine(opts.db, async (engine) => {
        if (opts.html || opts.csv) {
          refuseExisting([opts.html, opts.csv], opts.force);
          for (const [format, target] of [['html', opts.html], ['csv', opts.csv]] as const) {
            if (!target) continue;
            writeOutput(target, (await compareExport(engine.store, runIds, format)).bytes, opts.force);
            process.stdout.write(`wrote ${target}\n`);
          }
          return;
        }
        const result = await engine.handlers['runs:compare']({ runIds });
        if (opts.json) return void process.stdout.write(JSON.stringify(compareJson(result), null, 2) + '\n');
        process.stdout.write(formatCompare(result) + '\n');
      });
    });
}
