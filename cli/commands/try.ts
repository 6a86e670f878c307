import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { CallRequest } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import { ScenarioInvalidError } from '../../engine/scenario/errors.js';
import { exampleNames, examplePath } from '../../engine/scenario/examples.js';
import { resolveScenarioFile } from '../../engine/scenario/load.js';
import { formatTry } from '../format/try-steps.js';
import { collectSet, dbOption, withEngine } from '../options.js';
import { onStopSignal, signalExitCode, type StopSignal } from '../signals.js';

interface TryCliOptions {
  quick: boolean;
  json: boolean;
  set: Record<string, string>;
  server: number;
  allowRemote: boolean;
  allowCommands: boolean;
  allowFiles: boolean;
  db?: string;
  example?: string;
}

const EXIT_CODES_HELP = `
Exit codes:
  0    every step was sent and passed
  1    a step failed or was not sent
  2    bad input: no such scenario, an invalid one, consent not given, or a target that could not be reached`;

/** A file is read here (the engine takes names and text, never paths); a name goes as it is. */
function trySource(ref: string | undefined, example: string | undefined): CallRequest<'scenarios:try'>['scenario'] {
  if ((ref === undefined) === (example === undefined)) throw new LoadscopeError('LS_ERR_BAD_REQUEST', 'give one scenario: a file, a name (see `loadscope scenarios`) or --example <name>');
  // an example is the package's file: its data files are found beside it, from any folder
  const path = example !== undefined ? examplePath(example) : resolveScenarioFile(ref!);
  return path === undefined ? { name: ref! } : { text: readFileSync(path, 'utf8'), origin: path };
}

function parseServer(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--server takes a server's index (0 is the first), got '${value}'`);
  return Number(value);
}

/** One line for an invalid scenario: its first problem, and how many more `validate` lists. */
function oneLine(err: ScenarioInvalidError): LoadscopeError {
  const [first] = err.issues;
  const more = err.issues.length - 1;
  return new LoadscopeError(err.code, `${err.source} is not a valid scenario: ${first?.path ?? ''}: ${first?.message ?? ''}${more > 0 ? ` (and ${more} more: loadscope validate lists them)` : ''}`);
}

/**
 * `loadscope try <scenario>`: one user through the journey against its target, started as for a
 * run, every request and response printed; nothing is stored (engine/run/try/).
 */
export function registerTry(program: Command): void {
  program
    .command('try')
    .description('send one user through a scenario once (each step of a flow, each request of a plain phase) and show every request and response; nothing is stored')
    .argument('[scenario]', 'a scenario file (.json), or a built-in or library name (see `loadscope scenarios`)')
    .option('--example <name>', `try one of the examples that ship with Loadscope: ${exampleNames().join(', ') || '(none)'}`)
    .option('--quick', "use the scenario's quick profile", false)
    .option('--set <path=value>', 'override a scenario value, e.g. --set servers[0].url=http://127.0.0.1:3000 (repeatable)', collectSet, {})
    .option('--server <index>', "which of the scenario's servers to try (0 is the first)", parseServer, 0)
    .option('--json', 'print one JSON document instead of the step blocks', false)
    .option('--allow-remote', 'consent to send the requests to a target outside this machine (named in the scenario)', false)
    .option('--allow-commands', "consent to run the scenario's external server commands", false)
    .option('--allow-files', "consent to read files outside the scenario's folder", false)
    .addOption(dbOption())
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (ref: string | undefined, opts: TryCliOptions) => {
      const scenario = trySource(ref, opts.example);
      let stoppedBy: StopSignal | null = null;
      const result = await withEngine(opts.db, async (engine) => {
        // Ctrl-C: the request in flight ends, the rest is not sent, the servers stop (engine.close)
        const offSignals = onStopSignal((signal) => {
          stoppedBy ??= signal;
          void engine.close(`cancelled by ${signal}`);
        });
        try {
          const request = { scenario, quick: opts.quick, set: opts.set, server: opts.server, allowRemote: opts.allowRemote, allowCommands: opts.allowCommands, allowFiles: opts.allowFiles };
          return await engine.handlers['scenarios:try'](request);
        } catch (err) {
          throw err instanceof ScenarioInvalidError ? oneLine(err) : err;
        } finally {
          offSignals();
        }
      });
      process.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : formatTry(result));
      if (result.unreachable !== null && !opts.json) process.stderr.write(`loadscope: ${result.unreachable}\n`);
      process.exitCode = stoppedBy !== null ? signalExitCode(stoppedBy) : result.unreachable !== null ? 2 : result.passed ? 0 : 1;
    });
}
