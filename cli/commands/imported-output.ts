import type { ImportResult } from '../../engine/import-requests/imported-scenario.js';
import { writeOutput } from '../output-file.js';

/** An imported scenario to --out (never over a file without --force) or stdout; its notes to stderr. */
export function writeImported(result: ImportResult, opts: { out?: string | undefined; force: boolean }): void {
  if (opts.out === undefined) process.stdout.write(result.text);
  else writeOutput(opts.out, result.text, opts.force);
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  if (opts.out !== undefined) process.stderr.write(`wrote ${opts.out}; \`loadscope validate ${opts.out}\` shows it, \`loadscope run ${opts.out}\` runs it\n`);
}
