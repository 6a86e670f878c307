import { basename, dirname, join } from 'node:path';
import { CorrelateChoice } from '../../contract/imported-journey.js';
import { LoadscopeError } from '../../contract/errors.js';
import { proposalLine, type JourneyImport } from '../../engine/import-requests/journey.js';
import { refuseExisting, writeOutput } from '../output-file.js';

// What an import writes: the scenario to --out (never over a file without --force) or stdout, the
// credentials it moved out of the scenario to a CSV beside it (mode 0600: only its owner reads it),
// and to stderr its notes and one line per correlation proposal. Both files or neither.

export interface ImportedOutputOptions {
  out?: string | undefined;
  force: boolean;
}

/**
 * The credentials file beside the scenario: journey.json -> journey.credentials.csv; without --out,
 * credentials.csv in the current folder. `named`: as the scenario names it (relative to its file).
 */
export function credentialsFileFor(out: string | undefined): { path: string; named: string } {
  const named = out === undefined ? 'credentials.csv' : `${basename(out).replace(/\.json$/i, '')}.credentials.csv`;
  return { path: join(out === undefined ? '.' : dirname(out), named), named };
}

/** --correlate all|none|c1,c2 as the engine takes it; anything else is one line. */
export function correlateOption(text: string): CorrelateChoice {
  const parsed = CorrelateChoice.safeParse(text === 'all' || text === 'none' ? text : text.split(',').map((s) => s.trim()).filter((s) => s !== ''));
  if (!parsed.success) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--correlate takes all, none or proposal ids like c1,c3; not ${JSON.stringify(text.slice(0, 40))}`);
  return parsed.data;
}

export function writeImported(result: JourneyImport, credentialsPath: string, opts: ImportedOutputOptions): void {
  refuseExisting([opts.out, result.csv === null ? undefined : credentialsPath], opts.force);
  if (result.csv !== null) writeOutput(credentialsPath, result.csv, opts.force, 0o600);
  if (opts.out === undefined) process.stdout.write(result.text);
  else writeOutput(opts.out, result.text, opts.force);
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  for (const p of result.proposals) process.stderr.write(`correlation ${proposalLine(p)}\n`);
  if (result.csv !== null) process.stderr.write(`wrote ${credentialsPath} (mode 0600)\n`);
  if (opts.out !== undefined) process.stderr.write(`wrote ${opts.out}; \`loadscope validate ${opts.out}\` shows it, \`loadscope run ${opts.out}\` runs it\n`);
}
