import { once } from 'node:events';
import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { CSV_EOL } from '../../engine/export/csv-cell.js';
import { csvLines } from '../../engine/export/csv.js';
import { runExport } from '../../engine/export/export-run.js';
import { dbOption, parseRunId, withEngine } from '../options.js';
import { openOutput, refuseExisting, writeOutput } from '../output-file.js';

interface ExportOptions {
  csv?: string;
  summary: boolean;
  png?: string;
  html?: string;
  force: boolean;
  db?: string;
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write a run as a self-contained HTML report, a one-page PNG summary, or CSV (requests, or a per-phase summary)')
    .argument('<run>', 'run id (see `loadscope list`)', parseRunId)
    .option('--html <file>', 'one self-contained HTML file: scenario, machine, every phase, every chart (opens from disk, no network)')
    .option('--png <file>', 'one-page summary: header, per-phase table, the main charts')
    .option('--csv <file>', 'one row per request (times in ms); with --summary one row per server run and phase')
    .option('--summary', 'with --csv: the per-phase summary instead of the requests', false)
    .option('--force', 'replace files that already exist', false)
    .addOption(dbOption())
    .action(async (runId: number, opts: ExportOptions) => {
      if (!opts.csv && !opts.png && !opts.html) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'say what to write: --html FILE, --png FILE and/or --csv FILE [--summary]');
      if (opts.summary && !opts.csv) throw new LoadscopeError('LS_ERR_BAD_REQUEST', '--summary goes with --csv FILE');
      // every file is checked before any is written; the writes themselves refuse ('wx') one created since
      refuseExisting([opts.csv, opts.png, opts.html], opts.force);
      await withEngine(opts.db, async (engine) => {
        const run = await engine.handlers['runs:get']({ runId });
        if (opts.csv && opts.summary) {
          const file = await runExport(engine.store, runId, 'csv-summary');
          writeOutput(opts.csv, file.bytes, opts.force);
          process.stdout.write(`wrote the per-phase summary to ${opts.csv}\n`);
        } else if (opts.csv) {
          // Streamed line by line: a run of millions of requests is never held in memory.
          const out = await openOutput(opts.csv, opts.force);
          let rows = -1;
          for (const line of csvLines(engine.store, run)) {
            rows += 1;
            if (!out.write(line + CSV_EOL)) await once(out, 'drain');
          }
          out.end();
          await once(out, 'finish');
          process.stdout.write(`wrote ${rows} requests to ${opts.csv}\n`);
        }
        for (const [format, target] of [['png', opts.png], ['html', opts.html]] as const) {
          if (!target) continue;
          writeOutput(target, (await runExport(engine.store, runId, format)).bytes, opts.force);
          process.stdout.write(`wrote ${target}\n`);
        }
      });
    });
}
