import type { RunScenarioSource } from '../../contract/library.js';
import type { RunSource, Store } from '../../db/store.js';
import { builtinScenarioNames } from '../scenario/builtin.js';
import { keptFileInfo } from './kept-data.js';
import { findNamedScenario, type NamedScenario } from './lookup.js';

// What a run was started from, and what a new run is started from. A run keeps its own copy of the
// text, so "open its scenario" and "run again" work after the library scenario was edited (a new
// version) or deleted.

/** `runs:scenario`: the stored run's scenario text, overrides and where it came from. */
export function runScenarioSource(store: Store, runId: number): RunScenarioSource {
  const source = store.getRunSource(runId);
  if (source === null) {
    // A run from before the library: its stored scenario is already expanded (quick applied).
    const run = store.getRun(runId);
    return { text: JSON.stringify(run.scenario, null, 2) + '\n', quick: false, set: {}, origin: { kind: 'text', name: run.scenarioName } };
  }
  const { text, quick, set } = source;
  // the data files it read from the library come with it, so it runs again as it ran
  const kept = source.files === undefined ? {} : { files: source.files.map((f) => keptFileInfo(store.library, f)) };
  const version = source.libraryVersionId === null ? undefined : store.library.version(source.libraryVersionId);
  if (version) {
    const latest = store.library.get(version.id).version === version.version;
    return { text, quick, set, ...kept, origin: { kind: 'library', id: version.id, name: version.name, version: version.version, latest } };
  }
  const name = store.getRun(runId).scenarioName;
  if (builtinScenarioNames().includes(name) && findNamedScenario(store, name)?.text === text) return { text, quick, set, origin: { kind: 'builtin', name } };
  return { text, quick, set, ...kept, origin: { kind: 'text', name } };
}

/** The run source to store for a named scenario (built-in or library version, with the files that version keeps). */
export function sourceOfNamed(store: Store, named: NamedScenario, set: Record<string, string>): RunSource {
  if (named.source !== 'library') return { text: named.text, set, libraryVersionId: null };
  return { text: named.text, set, libraryVersionId: named.versionId, files: store.library.files(named.versionId) };
}
