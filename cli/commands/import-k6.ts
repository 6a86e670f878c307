import type { Command } from 'commander';
import { importK6Files } from '../../engine/k6/import/import-k6.js';
import { loadScenario } from '../../engine/scenario/index.js';
import { dbOption, withEngine } from '../options.js';

export function registerImportK6(program: Command): void {
  program
    .command('import-k6')
    .description("store k6 result files (--out json, NDJSON or CSV, gzipped or not) as one run; several files (k6-operator pods) merge")
    .argument('<files...>', 'k6 result files')
    .option('--scenario <scenario>', 'the scenario the script was exported from (names executors and servers, keeps its report)')
    .option('--quick', 'with --scenario: its quick profile', false)
    .option('--title <text>', 'the run title (default: k6: <scenario>)')
    .addOption(dbOption())
    .action(async (files: string[], opts: { scenario?: string; quick: boolean; title?: string; db?: string }) => {
      const scenario = opts.scenario === undefined ? undefined : loadScenario(opts.scenario, { quick: opts.quick }).cells[0]!.scenario;
      const summary = await withEngine(opts.db, (engine) => importK6Files(engine.store, files, { scenario, title: opts.title }));
      process.stdout.write(
        `stored run ${summary.runId}: ${summary.requests} requests from ${files.length} file(s)` +
          (summary.dropped > 0 ? `, ${summary.dropped} dropped iterations (never sent)` : '') +
          `\n${summary.note}\n\`loadscope show ${summary.runId}\` prints its figures.\n`,
      );
    });
}
