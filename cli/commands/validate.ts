import type { Command } from 'commander';
import {
  builtinScenarioNames,
  formatIssues,
  loadScenario,
  parseSetArg,
  prepareScenarioText,
  resolveScenarioFile,
  ScenarioInvalidError,
  summarizeScenario,
  type PreparedScenario,
} from '../../engine/scenario/index.js';
import { readDataFiles } from '../../engine/scenario/data-files.js';
import { resolveGrpcProtos } from '../../engine/scenario/grpc-protos.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultDbPath } from '../../engine/db-path.js';
import { terminalSafeInline } from '../format/terminal-safe.js';
import type { Engine } from '../../engine/engine.js';
import { dbOption } from '../options.js';

interface ValidateOptions {
  quick: boolean;
  set: Record<string, string>;
  print: boolean;
  json: boolean;
  db?: string;
}

/**
 * The scenario `ref` names, checked as `run` would read it: a file's or a built-in's data files
 * beside it; a library scenario's from the files it keeps (a relative path it does not keep is an
 * issue at its data[i].file, not a failure when the run starts); a gRPC template's .proto read and
 * its service/method found (a missing or unreadable file is an issue at its stream.proto).
 */
async function loadChecked(ref: string, opts: ValidateOptions): Promise<PreparedScenario & { label: string }> {
  const fromDisk = () => {
    const loaded = loadScenario(ref, { quick: opts.quick, set: opts.set });
    const label = loaded.source === 'builtin' ? `built-in scenario '${loaded.name}'` : loaded.path;
    readDataFiles(loaded.scenario, loaded.cells, dirname(loaded.path), label);
    return { ...resolveGrpcProtos(loaded, dirname(loaded.path), label), label };
  };
  // a name no built-in has may be a library scenario's; with no database there is no library (none is made to look)
  if (resolveScenarioFile(ref) !== undefined || builtinScenarioNames().includes(ref) || !existsSync(defaultDbPath(opts.db))) return fromDisk();
  const { createEngine } = await import('../../engine/engine.js');
  let engine: Engine;
  try {
    engine = createEngine({ dbPath: opts.db });
  } catch {
    // a library that cannot be opened holds no scenario to check: the name is judged as a built-in's
    return fromDisk();
  }
  try {
    if (engine.store.library.find(ref) === undefined) return fromDisk();
    const found = await engine.handlers['scenarios:get']({ name: ref });
    const label = `library scenario '${found.name}'`;
    const prepared = prepareScenarioText(found.text, label, { quick: opts.quick, set: opts.set });
    const { keptDataOf } = await import('../../engine/library/kept-data.js');
    readDataFiles(prepared.scenario, prepared.cells, null, label, { kept: keptDataOf(engine.store.library, found.files ?? []) });
    // a library scenario has no folder: a relative .proto is an issue, as when it runs
    return { ...resolveGrpcProtos(prepared, null, label), label };
  } finally {
    await engine.close();
  }
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
    .description('check a scenario file (a built-in, or one of your library) and show it with its defaults filled')
    .argument('<scenario>', 'a scenario file (.json), a built-in name or a library name')
    .option('--quick', 'check it with its quick profile applied', false)
    .option('--set <path=value>', 'override a value first, e.g. --set phases[0].count=50 (repeatable)', collectSet, {})
    .option('--print', 'also print the scenario with every default filled, as JSON', false)
    .option('--json', 'print one JSON document: {ok, scenario, cells} or {ok: false, issues}', false)
    .addOption(dbOption())
    .action(async (ref: string, opts: ValidateOptions) => {
      try {
        // as run reads them: beside the file (a built-in's folder) or kept in the library, each {{data.<column>}} checked
        const loaded = await loadChecked(ref, opts);
        if (opts.json) {
          const cells = loaded.cells.map(({ index, label, params }) => ({ index, label, params }));
          process.stdout.write(JSON.stringify({ ok: true, scenario: loaded.scenario, cells }, null, 2) + '\n');
          return;
        }
        const lines = [`OK: ${loaded.label}${loaded.quick ? ' (quick profile)' : opts.quick ? ' (no quick profile: as a full run)' : ''}`];
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
