import { basename, dirname, join } from 'node:path';
import { CorrelateChoice } from '../../contract/imported-journey.js';
import { LoadscopeError } from '../../contract/errors.js';
import type { ImportResult } from '../../engine/import-requests/imported-scenario.js';
import { proposalLine, type JourneyImport } from '../../engine/import-requests/journey.js';
import { refuseExisting, writeOutput } from '../output-file.js';

// What an import writes: the scenario to --out (never over a file without --force) or stdout, the
// data files it names beside it (mode 0600: they hold credentials), all or none, and its notes to
// stderr; a journey (import-har, import-curl, record) also one line per correlation proposal.

export interface ImportedOutputOptions {
  out?: string | undefined;
  force: boolean;
}

/**
 * An imported scenario to --out (never over a file without --force) or stdout; its notes to stderr.
 * The files it names (a description's data file) go beside --out, all or none written: checked
 * first, and only readable by their owner (they hold credentials).
 */
export function writeImported(result: ImportResult, opts: ImportedOutputOptions): void {
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
  wrote(opts);
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

/** A journey and the credentials it moved out (to `credentialsPath`, 0600), both or neither; each correlation proposal one line. */
export function writeJourney(result: JourneyImport, credentialsPath: string, opts: ImportedOutputOptions): void {
  refuseExisting([opts.out, result.csv === null ? undefined : credentialsPath], opts.force);
  if (result.csv !== null) writeOutput(credentialsPath, result.csv, opts.force, 0o600);
  if (opts.out === undefined) process.stdout.write(result.text);
  else writeOutput(opts.out, result.text, opts.force);
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  for (const p of result.proposals) process.stderr.write(`correlation ${proposalLine(p)}\n`);
  if (result.csv !== null) process.stderr.write(`wrote ${credentialsPath} (mode 0600)\n`);
  wrote(opts);
}

function wrote(opts: ImportedOutputOptions): void {
  if (opts.out !== undefined) process.stderr.write(`wrote ${opts.out}; \`loadscope validate ${opts.out}\` shows it, \`loadscope run ${opts.out}\` runs it\n`);
}
