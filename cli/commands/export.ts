import { createWriteStream, existsSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { csvLines } from '../../engine/export/csv.js';
import { renderRunPng } from '../../engine/export/png.js';
import { dbOption, parseRunId, withEngine } from '../options.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description("write a run's raw requests as CSV, or its headline chart as PNG")
    .argument('<run>', 'run id (see `loadscope list`)', parseRunId)
    .option('--csv <file>', 'one row per request (times in ms)')
    .option('--png <file>', 'mean wait / processing / total per server and phase')
    .option('--force', 'replace a file that already exists', false)
    .addOption(dbOption())
    .action(async (runId: number, opts: { csv?: string; png?: string; force: boolean; db?: string }) => {
      if (!opts.csv && !opts.png) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'say what to write: --csv FILE and/or --png FILE');
      for (const file of [opts.csv, opts.png]) {
        if (file !== undefined && !opts.force && existsSync(file)) {
          throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${file} already exists; pass --force to replace it`);
        }
      }
      await withEngine(opts.db, async (engine) => {
        const run = await engine.handlers['runs:get']({ runId });
        if (opts.csv) {
          // Streamed line by line: a run of millions of requests is never held in memory.
          // 'wx' also refuses a file created since the check above (unless --force).
          const out = createWriteStream(opts.csv, { flags: opts.force ? 'w' : 'wx' });
          let rows = -1;
          for (const line of csvLines(engine.store, run)) {
            rows += 1;
            if (!out.write(line + '\n')) await once(out, 'drain');
          }
          out.end();
          await once(out, 'finish');
          process.stdout.write(`wrote ${rows} requests to ${opts.csv}\n`);
        }
        if (opts.png) {
          writeFileSync(opts.png, await renderRunPng(run), { flag: opts.force ? 'w' : 'wx' });
          process.stdout.write(`wrote ${opts.png}\n`);
        }
      });
    });
}
