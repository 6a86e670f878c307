import { dirname, join } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import type { ImportResult } from '../../engine/import-requests/imported-scenario.js';
import { refuseExisting, writeOutput } from '../output-file.js';

/**
 * An imported scenario to --out (never over a file without --force) or stdout; its notes to stderr.
 * The files it names (a description's data file) go beside --out, all or none written: checked
 * first, and only readable by their owner (they hold credentials).
 */
export function writeImported(result: ImportResult, opts: { out?: string | undefined; force: boolean }): void {
  const files = result.files ?? [];
  if (opts.out === undefined && files.length > 0) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `the scenario reads ${files.map((f) => f.name).join(', ')}, written beside it: give --out FILE`);
  }
  const beside = (name: string) => join(dirname(opts.out ?? '.'), name);
  refuseExisting([opts.out, ...files.map((f) => beside(f.name))], opts.force);
  for (const f of files) writeOutput(beside(f.name), f.text, opts.force, 0o600);
  if (opts.out === undefined) process.stdout.write(result.text);
  else writeOutput(opts.out, result.text, opts.force);
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  for (const f of files) process.stderr.write(`wrote ${beside(f.name)} (the scenario's data: examples and credentials)\n`);
  if (opts.out !== undefined) process.stderr.write(`wrote ${opts.out}; \`loadscope validate ${opts.out}\` shows it, \`loadscope run ${opts.out}\` runs it\n`);
}
