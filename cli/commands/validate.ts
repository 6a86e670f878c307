import type { Command } from 'commander';
import {
  formatIssues,
  loadScenario,
  parseSetArg,
  ScenarioInvalidError,
  summarizeScenario,
} from '../../engine/scenario/index.js';
import { readDataFiles } from '../../engine/scenario/data-files.js';
import { dirname } from 'node:path';
import { terminalSafeInline } from '../format/terminal-safe.js';

interface ValidateOptions {
  quick: boolean;
  set: Record<string, string>;
  print: boolean;
  json: boolean;
}

function collectSet(value: string, previous: Record<string, string>): Record<string, string> {
  const [key, text] = parseSetArg(value);
  return { ...previous, [key]: text };
}

/**
 * `loadscope validate <file | built-in>`: OK and a summary (exit 0), or every `path: reason` line of
 * the scenario's problems (exit 2). The same checks `run` makes, without running anything.
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check a scenario file (or a built-in) and show it with its defaults filled')
    .argument('<scenario>', 'a scenario file (.json) or a built-in name')
    .option('--quick', 'check it with its quick profile applied', false)
    .option('--set <path=value>', 'override a value first, e.g. --set phases[0].count=50 (repeatable)', collectSet, {})
    .option('--print', 'also print the scenario with every default filled, as JSON', false)
    .option('--json', 'print one JSON document: {ok, scenario, cells} or {ok: false, issues}', false)
    .action((ref: string, opts: ValidateOptions) => {
      try {
        const loaded = loadScenario(ref, { quick: opts.quick, set: opts.set });
        // as run reads them: beside the file (a built-in's folder), each {{data.<column>}} checked
        readDataFiles(loaded.scenario, loaded.cells, dirname(loaded.path), loaded.source === 'builtin' ? `built-in scenario '${loaded.name}'` : loaded.path);
        if (opts.json) {
          const cells = loaded.cells.map(({ index, label, params }) => ({ index, label, params }));
          process.stdout.write(JSON.stringify({ ok: true, scenario: loaded.scenario, cells }, null, 2) + '\n');
          return;
        }
        const lines = [`OK: ${loaded.source === 'builtin' ? `built-in scenario '${loaded.name}'` : loaded.path}${loaded.quick ? ' (quick profile)' : opts.quick ? ' (no quick profile: as a full run)' : ''}`];
        // one line each: a title or label with a line break must not print a line of its own
        lines.push(...summarizeScenario(loaded.scenario, loaded.cells).map(terminalSafeInline));
        if (opts.print) lines.push('', JSON.stringify(loaded.scenario, null, 2));
        process.stdout.write(lines.join('\n') + '\n');
      } catch (err) {
        if (!(err instanceof ScenarioInvalidError)) throw err;
        if (opts.json) {
          process.stdout.write(JSON.stringify({ ok: false, issues: err.issues }, null, 2) + '\n');
        } else {
          const n = err.issues.length;
          process.stderr.write(`${err.source} is not a valid scenario (${n} problem${n === 1 ? '' : 's'}):\n${formatIssues(err.issues)}\n`);
        }
        process.exitCode = 2;
      }
    });
}
