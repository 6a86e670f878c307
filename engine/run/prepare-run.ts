import { dirname, isAbsolute } from 'node:path';
import type { ParsedCallRequest, ValidationResult } from '../../contract/api.js';
import type { KeptFileRef } from '../../contract/kept-files.js';
import type { RunEngine } from '../../contract/results.js';
import type { RunSource, Store } from '../../db/store.js';
import { keptDataOf } from '../library/kept-data.js';
import { lookupScenario } from '../library/lookup.js';
import { runScenarioSource, sourceOfNamed } from '../library/run-source.js';
import { packageRoot } from '../paths.js';
import { prepareScenarioText, ScenarioInvalidError, validateScenarioText, type PreparedScenario } from '../scenario/index.js';
import { readDataFiles, type DataBase, type KeptData } from '../scenario/data-files.js';
import { resolveTlsFiles } from '../scenario/tls-files.js';
import { resolveGrpcProtos } from '../scenario/grpc-protos.js';
import { refuseGetBodiesOverH2 } from '../scenario/h2-get-bodies.js';
import { builtinScenarioPath } from '../scenario/builtin.js';
import { checkConsent, commandsOf, consentNeeded, type ConsentGiven } from './consent.js';
import { filesOutside } from './consent-files.js';
import type { PreparedRun } from './orchestrator.js';

export interface RunOptions {
  quick: boolean;
  set: Record<string, string>;
  /** what the person agreed to (default: nothing beyond this machine's bundled servers) */
  consent?: ConsentGiven;
  /** who sends the load (default native): the consent question says what consenting means for it */
  engine?: RunEngine;
}

export type StartSource = ParsedCallRequest<'runs:start'>['scenario'];

/**
 * A run's scenario from a built-in or library name, from JSON text (the editor, a file the CLI read),
 * or from a stored run (run again: its own text, quick and --set, plus any given now): quick profile
 * and --set applied, validated, matrix expanded, consent checked on the scenario as it will run (a
 * built-in's own commands are trusted, any other command needs --allow-commands, a file read
 * outside the scenario's folder and the package's scenarios/ --allow-files). Throws with every path and reason, or LS_ERR_NEEDS_CONSENT.
 */
export function prepareRun(store: Store, from: StartSource, opts: RunOptions): PreparedRun {
  let source: RunSource;
  let sourceName: string;
  let quick = opts.quick;
  let builtin = false;
  // where relative data file paths start: a built-in's folder, an opened file's folder, else none
  let base: DataBase = null;
  // a library scenario's relative data paths name the files it keeps (engine/library/kept-data.ts)
  let kept: KeptData | null = null;
  if ('name' in from) {
    const named = lookupScenario(store, from.name);
    builtin = named.source === 'builtin';
    if (builtin) base = dirname(builtinScenarioPath(named.name));
    source = sourceOfNamed(store, named, opts.set);
    if (named.source === 'library') kept = keptDataOf(store.library, source.files ?? []);
    sourceName = `${named.source === 'builtin' ? 'built-in' : 'library'} scenario '${named.name}'`;
  } else if ('runId' in from) {
    const stored = runScenarioSource(store, from.runId);
    const set = { ...stored.set, ...opts.set };
    const versionId = stored.origin.kind === 'library' ? store.getRunSource(from.runId)?.libraryVersionId ?? null : null;
    source = { text: stored.text, set, libraryVersionId: versionId };
    sourceName = `the scenario of run ${from.runId}`;
    quick ||= stored.quick;
    builtin = stored.origin.kind === 'builtin';
    if (stored.origin.kind === 'builtin') base = dirname(builtinScenarioPath(stored.origin.name));
    // a file scenario's folder, kept with its run, so its relative data and TLS files are found again
    else base = store.getRunSource(from.runId)?.folder ?? null;
    source.folder = base;
    // the library's data files it read, kept with the run (a library version's, or an editor draft's)
    const files = store.getRunSource(from.runId)?.files;
    if (files !== undefined || versionId !== null) {
      source.files = files ?? [];
      kept = keptDataOf(store.library, source.files);
    }
  } else {
    sourceName = from.origin ?? 'the scenario';
    if (from.origin !== undefined && isAbsolute(from.origin)) base = dirname(from.origin);
    source = { text: from.text, set: opts.set, libraryVersionId: null, folder: base };
    // an editor draft of a library scenario: its relative data paths name the files it keeps
    if (from.files !== undefined) {
      source.files = from.files;
      kept = keptDataOf(store.library, from.files);
    }
  }
  const prepare = (set: Record<string, string>) => {
    const p = prepareScenarioText(source.text, sourceName, { quick, set });
    return builtin ? commandsFromPackage(p) : p;
  };
  const prepared = resolveGrpcProtos(resolveTlsFiles(prepare(source.set), base, sourceName), base, sourceName);
  refuseGetBodiesOverH2(prepared, sourceName);
  const given = opts.consent ?? { allowRemote: false, allowCommands: false, allowFiles: false };
  // A built-in's own commands are trusted: those its text runs with this profile and no overrides.
  // Whatever the overrides add or change is judged on the prepared cells, not on the keys' text.
  const trusted = builtin ? commandsOf(prepare({}).cells) : new Set<string>();
  // files outside the scenario's folder (and the package's scenarios/) are listed before any is read
  const needed = consentNeeded(prepared.cells, trusted, filesOutside(prepared.scenario, prepared.cells, base));
  checkConsent(needed, given, opts.engine);
  const data = readDataFiles(prepared.scenario, prepared.cells, base, sourceName, { kept });
  // stored as what it was: quick only where the scenario had a profile to apply (quick-profile.ts)
  return { scenario: prepared.scenario, cells: prepared.cells, quick: prepared.quick, source, consent: { ...needed, ...given }, data };
}

/**
 * A built-in's commands name files of the package (`node scenarios/assets/nginx-4k.mjs`): with no cwd
 * of their own they run from the package root, so a built-in runs the same from any folder.
 */
function commandsFromPackage(prepared: PreparedScenario): PreparedScenario {
  const fix = <S extends { servers: PreparedScenario['scenario']['servers'] }>(s: S): S => ({
    ...s,
    servers: s.servers.map((server) => (server.architecture === 'external' && server.command && server.cwd === undefined ? { ...server, cwd: packageRoot() } : server)),
  });
  return { ...prepared, scenario: fix(prepared.scenario), cells: prepared.cells.map((cell) => ({ ...cell, scenario: fix(cell.scenario) })) };
}

export function validateText(text: string, quick: boolean): ValidationResult {
  return validateScenarioText(text, { quick });
}

/**
 * `scenarios:validate`. With `files` (a library draft's kept files) its data is read from them as a
 * run would read it: a relative path none of them has is an issue at its `data[i].file`, not a
 * failure when the run starts. Absolute paths are not read here (no consent was asked).
 */
export function validateWithKept(store: Store, text: string, quick: boolean, files?: readonly KeptFileRef[]): ValidationResult {
  const result = validateText(text, quick);
  if (!result.ok || files === undefined) return result;
  const { scenario, cells } = prepareScenarioText(text, 'the scenario', { quick });
  try {
    readDataFiles(scenario, cells, null, 'the scenario', { kept: keptDataOf(store.library, files), keptOnly: true });
    return result;
  } catch (err) {
    if (err instanceof ScenarioInvalidError) return { ok: false, issues: err.issues };
    throw err;
  }
}
