import type { Command } from 'commander';
import { capacityJson, formatCapacity, storedCapacity } from '../format/capacity.js';
import { formatReportTables } from '../format/report.js';
import { terminalSafeInline } from '../format/terminal-safe.js';
import { formatRunSummary, runSummaryJson } from '../format/run-summary.js';
import { LoadscopeError } from '../../contract/errors.js';
import { groupFigures } from '../../contract/group-stats.js';
import { formatGroup, groupJson } from '../format/group.js';
import type { Engine } from '../../engine/engine.js';
import { dbOption, parseRunId, withEngine } from '../options.js';
import { diagnosisJson, formatDiagnosisTop, formatDiagnosisWhy } from '../format/diagnosis.js';
import { formatSlowest } from '../format/slowest.js';
import { DEFAULT_SLOWEST, MAX_SLOWEST } from '../../contract/slowest.js';

/** --slowest's N: 1..MAX_SLOWEST, or a one-line reason. */
function parseSlowest(value: string): number {
  const n = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= MAX_SLOWEST)) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--slowest takes a whole number from 1 to ${MAX_SLOWEST}, got '${value}'`);
  return n;
}

export function registerShow(program: Command): void {
  program
    .command('show')
    .description("print a stored run's per-phase figures and its report tables")
    .argument('[run]', 'run id (see `loadscope list`)', parseRunId)
    .option('--group <id>', 'a group of repeated runs (`run --repeat N`): each figure\'s mean with its 95 % interval across them', parseRunId)
    .option('--why', 'print every finding of its diagnosis with its evidence, how sure it is and what to try next', false)
    .option('--slowest [n]', `print each server run's and phase's n slowest stored requests (default ${DEFAULT_SLOWEST}) with their trace ids`, parseSlowest)
    .option('--json', 'print one JSON document', false)
    .addOption(dbOption())
    .action(async (runId: number | undefined, opts: { json: boolean; why: boolean; db?: string; group?: number; slowest?: number | true }) => {
      await withEngine(opts.db, async (engine) => {
        if (opts.group !== undefined) return showGroup(engine, opts.group, opts.json);
        if (runId === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'which run? give a run id (see `loadscope list`) or --group <id>');
        if (opts.slowest !== undefined) return showSlowest(engine, runId, opts.slowest === true ? DEFAULT_SLOWEST : opts.slowest, opts.json);
        const run = await engine.handlers['runs:get']({ runId });
        // a capacity search's figures, judged from the stored steps the way the engine judged them
        const capacity = await storedCapacity(run, () => engine.handlers['runs:windows']({ runId }));
        const diagnosis = await engine.handlers['runs:diagnosis']({ runId });
        if (opts.json) return void process.stdout.write(JSON.stringify({ ...runSummaryJson(run), name: run.name ?? null, note: run.note ?? null, ...(capacity && { capacity: capacityJson(capacity) }), diagnosis: diagnosisJson(diagnosis) }, null, 2) + '\n');
        if (run.name != null) process.stdout.write(`Name: ${terminalSafeInline(run.name)}\n`);
        process.stdout.write(formatRunSummary(run) + '\n');
        // the note as written, its lines kept (the stream guard escapes control codes)
        if (run.note != null) process.stdout.write('\nNote:\n' + run.note.split('\n').map((line) => `  ${line}`).join('\n') + '\n');
        if (capacity && capacity.length > 0) process.stdout.write('\n' + formatCapacity(capacity) + '\n');
        if (run.report.length > 0) process.stdout.write('\n' + formatReportTables(run.report) + '\n');
        process.stdout.write('\n' + (opts.why ? formatDiagnosisWhy(diagnosis) : formatDiagnosisTop(run.id, diagnosis)) + '\n');
      });
    });
}

/** A run's slowest stored requests per server run and phase, with their trace ids. */
async function showSlowest(engine: Engine, runId: number, limit: number, json: boolean): Promise<void> {
  const groups = await engine.handlers['runs:slowest']({ runId, limit });
  if (json) return void process.stdout.write(JSON.stringify({ runId, slowest: groups }, null, 2) + '\n');
  process.stdout.write(formatSlowest(runId, groups) + '\n');
}

/** The figures of a group of repeated runs, across them. */
async function showGroup(engine: Engine, groupId: number, json: boolean): Promise<void> {
  const members = (await engine.handlers['runs:list']({ limit: 10_000 })).filter((r) => r.group?.id === groupId).sort((a, b) => a.group!.index - b.group!.index);
  if (members.length === 0) throw new LoadscopeError('LS_ERR_RUN_NOT_FOUND', `no group ${groupId}; \`loadscope list\` shows each grouped run's group`);
  const runs = await Promise.all(members.map((m) => engine.handlers['runs:get']({ runId: m.id })));
  const figures = groupFigures(runs);
  const runIds = runs.map((r) => r.id);
  if (json) return void process.stdout.write(JSON.stringify({ group: { id: groupId, runIds, figures: groupJson(figures) } }, null, 2) + '\n');
  process.stdout.write(formatGroup(groupId, runIds, figures) + '\n');
}
