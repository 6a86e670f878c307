import type { Command } from 'commander';
import { LoadscopeError } from '../../contract/errors.js';
import { RUN_NAME_MAX, RUN_NOTE_MAX } from '../../contract/api.js';
import { terminalSafeInline } from '../format/terminal-safe.js';
import { dbOption, parseRunId, withEngine } from '../options.js';

export function registerAnnotate(program: Command): void {
  program
    .command('annotate')
    .description("give a stored run a name (shown instead of its title) and/or a note; '' clears one")
    .argument('<run>', 'run id (see `loadscope list`)', parseRunId)
    .option('--name <text>', `the run's name (at most ${RUN_NAME_MAX} characters)`)
    .option('--note <text>', `a note on the run (at most ${RUN_NOTE_MAX} characters)`)
    .addOption(dbOption())
    .action(async (runId: number, opts: { name?: string; note?: string; db?: string }) => {
      if (opts.name === undefined && opts.note === undefined) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'nothing to change: give --name TEXT and/or --note TEXT');
      // said here with the limit, not as the contract's schema message
      if (opts.name !== undefined && opts.name.length > RUN_NAME_MAX) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--name is ${opts.name.length} characters; at most ${RUN_NAME_MAX}`);
      if (opts.note !== undefined && opts.note.length > RUN_NOTE_MAX) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--note is ${opts.note.length} characters; at most ${RUN_NOTE_MAX}`);
      await withEngine(opts.db, async (engine) => {
        const saved = await engine.handlers['runs:annotate']({ runId, name: opts.name, note: opts.note });
        const parts = [`name: ${saved.name === null ? '(none)' : terminalSafeInline(saved.name)}`, `note: ${saved.note === null ? '(none)' : `${saved.note.length} characters`}`];
        process.stdout.write(`run ${runId} annotated; ${parts.join(', ')}\n`);
      });
    });
}
