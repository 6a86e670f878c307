import { Option, type Command } from 'commander';
import { BASELINE_PROFILES, type Baseline, type BaselineProfile } from '../../contract/baselines.js';
import { LoadscopeError } from '../../contract/errors.js';
import { terminalSafeInline } from '../format/terminal-safe.js';
import { textTable } from '../format/table.js';
import { dbOption, parseRunId, withEngine } from '../options.js';

// `loadscope baseline set|show|clear`: the run a scenario's new runs are judged against
// (`loadscope run SCENARIO --baseline`), one per scenario and profile (quick or full).

function baselineRows(list: readonly Baseline[]): string {
  if (list.length === 0) return 'no baseline pinned (`loadscope baseline set RUN` pins one)';
  return textTable(
    ['scenario', 'profile', 'run', 'runs', 'pinned', 'title'],
    list.map((b) => [b.scenarioName, b.profile, String(b.runId), b.runIds.length > 1 ? `group of ${b.runIds.length}: ${b.runIds.join(', ')}` : '1', b.pinnedAt, b.name ?? b.title]),
  );
}

export function registerBaseline(program: Command): void {
  const baseline = program
    .command('baseline')
    .description('pin a run as the baseline of its scenario (per quick/full profile), show or clear baselines; `run SCENARIO --baseline` judges a new run against it');

  baseline
    .command('set')
    .description("pin a completed run as its scenario's baseline for its profile (quick or full), replacing the one before; a run of a repeated group stands for its group")
    .argument('<run>', 'run id (see `loadscope list`)', parseRunId)
    .addOption(dbOption())
    .action(async (runId: number, opts: { db?: string }) => {
      await withEngine(opts.db, async (engine) => {
        const b = await engine.handlers['baselines:set']({ runId });
        const group = b.runIds.length > 1 ? ` (with its group: runs ${b.runIds.join(', ')})` : '';
        process.stdout.write(`run ${b.runId}${group} is the baseline of ${terminalSafeInline(b.scenarioName)} (${b.profile})\n`);
      });
    });

  baseline
    .command('show')
    .description("the pinned baselines: every scenario's, or one scenario's")
    .argument('[scenario]', 'a scenario name')
    .option('--json', 'print JSON', false)
    .addOption(dbOption())
    .action(async (scenarioName: string | undefined, opts: { json: boolean; db?: string }) => {
      await withEngine(opts.db, async (engine) => {
        const list = await engine.handlers['baselines:list']({ scenarioName });
        if (opts.json) return void process.stdout.write(JSON.stringify(list, null, 2) + '\n');
        process.stdout.write(baselineRows(list) + '\n');
      });
    });

  baseline
    .command('clear')
    .description("unpin a scenario's baseline (both profiles, or one), or with --all every baseline")
    .argument('[scenario]', 'a scenario name')
    .addOption(new Option('--profile <profile>', 'only this profile').choices(BASELINE_PROFILES))
    .option('--all', 'every baseline of every scenario', false)
    .addOption(dbOption())
    .action(async (scenarioName: string | undefined, opts: { profile?: BaselineProfile; all: boolean; db?: string }) => {
      if ((scenarioName === undefined) === !opts.all) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'give a scenario name, or --all to clear every baseline');
      await withEngine(opts.db, async (engine) => {
        const { cleared } = await engine.handlers['baselines:clear']({ scenarioName, profile: opts.profile });
        const what = scenarioName === undefined ? 'every scenario' : terminalSafeInline(scenarioName);
        process.stdout.write(`${cleared} baseline${cleared === 1 ? '' : 's'} cleared (${what}${opts.profile ? `, ${opts.profile}` : ''})\n`);
      });
    });
}
