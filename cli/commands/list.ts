import type { Command } from 'commander';
import { RunStatus, type RunListItem } from '../../contract/results.js';
import { LoadscopeError } from '../../contract/errors.js';
import { thresholdsFailed } from '../../contract/thresholds.js';
import { regressionFailed } from '../../contract/run-verdict.js';
import { fmtDuration, fmtMs, fmtNum, textTable } from '../format/table.js';
import { dbOption, withEngine } from '../options.js';

/** A run's status as `list` prints it: a completed run whose thresholds or regression rules failed is not a plain "completed". */
function statusText(r: RunListItem): string {
  if (r.damaged !== undefined) return `${r.status}, DAMAGED`;
  const failed = [
    r.thresholds !== null && thresholdsFailed(r.status, r.thresholds) ? `thresholds failed (${r.thresholds.failed} of ${r.thresholds.passed + r.thresholds.failed})` : null,
    // the verdict `run --baseline` kept with the run
    r.regression != null && regressionFailed(r.status, r.regression) ? `regression failed (${r.regression.failed} of ${r.regression.rules} rules)` : null,
  ].filter((x) => x !== null);
  return failed.length > 0 ? `${r.status}, ${failed.join(', ')}` : r.status;
}

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list the stored runs, newest first')
    .option('--status <status>', `only runs with this status (${RunStatus.options.join(', ')})`)
    .option('--text <text>', 'only runs whose scenario name, title or run name contains this')
    .option('--limit <n>', 'at most this many', '50')
    .option('--json', 'print JSON', false)
    .addOption(dbOption())
    .action(async (opts: { status?: string; text?: string; limit: string; json: boolean; db?: string }) => {
      const status = opts.status === undefined ? undefined : RunStatus.safeParse(opts.status);
      if (status && !status.success) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--status must be one of ${RunStatus.options.join(', ')}, got '${opts.status}'`);
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--limit must be a positive whole number, got '${opts.limit}'`);
      await withEngine(opts.db, async (engine) => {
        const runs = await engine.handlers['runs:list']({ status: status?.data, text: opts.text, limit });
        if (opts.json) return void process.stdout.write(JSON.stringify(runs, null, 2) + '\n');
        if (runs.length === 0) return void process.stdout.write('no runs stored yet; `loadscope run <scenario>` makes one\n');
        const rows = runs.map((r) => [
          String(r.id), (r.name == null ? '' : `${r.name} - `) + r.scenarioName + (r.quick ? ' (quick)' : ''), r.createdAt.replace('T', ' ').slice(0, 19), statusText(r),
          fmtDuration(r.durationMs), fmtNum(r.requests), fmtNum(r.errors), fmtMs(r.meanTotalMs), r.servers.join(', '),
          r.group === null ? '' : `${r.group.id} (${r.group.index + 1} of ${r.group.size})`,
        ]);
        process.stdout.write(textTable(['id', 'scenario', 'created', 'status', 'duration', 'requests', 'errors', 'mean total (ms)', 'servers', 'group'], rows) + '\n');
        // a damaged run is listed with the others, and why it cannot be read is said under the table
        for (const r of runs) if (r.damaged !== undefined) process.stdout.write(`damaged: ${r.damaged}\n`);
        // a note is long and multi-line: its first line under the table, `show` prints it whole
        for (const r of runs) if (r.note != null) process.stdout.write(`note on ${r.id}: ${r.note.split('\n')[0]!.slice(0, 120)}${r.note.length > 120 || r.note.includes('\n') ? ' ...' : ''}\n`);
      });
    });
}
