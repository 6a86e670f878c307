import type { EngineHandlers } from '../../contract/api.js';
import type { Store } from '../../db/store.js';
import { parseScenarioText } from '../scenario/parse-text.js';
import { writeBundle } from './bundle.js';
import { checkedName } from './checked-scenario.js';
import { importScenario } from './import-scenario.js';
import { checkKeptRefs, keptDataOf, keptFileInfo, uploadKeptFile } from './kept-data.js';
import { lookupScenario } from './lookup.js';
import { runScenarioSource } from './run-source.js';

type LibraryHandlers = Pick<
  EngineHandlers,
  | 'scenarios:get'
  | 'library:save'
  | 'library:import'
  | 'library:rename'
  | 'library:delete'
  | 'library:versions'
  | 'runs:scenario'
  | 'library:upload-data'
  | 'library:bundle'
>;

/** The text with its `name` replaced (a rename), keeping the rest as written. */
function withName(text: string, name: string): string {
  const value = parseScenarioText(text, 'the stored scenario');
  return JSON.stringify({ ...(value as Record<string, unknown>), name }, null, 2) + '\n';
}

export function libraryHandlers(store: Store): LibraryHandlers {
  return {
    'scenarios:get': async ({ name }) => {
      const found = lookupScenario(store, name);
      if (found.source === 'builtin') return found;
      const files = store.library.files(found.versionId).map((f) => keptFileInfo(store.library, f));
      return { name, text: found.text, source: 'library', id: found.id, version: found.version, files };
    },
    'library:save': async ({ id, text, files }) => {
      // absent: the files of the version before (a save of the text alone keeps them)
      const kept = files ?? (id === undefined ? [] : store.library.files(store.library.get(id).versionId));
      checkKeptRefs(store.library, kept);
      const name = checkedName(text, id === undefined ? 'the new scenario' : `the scenario`, keptDataOf(store.library, kept));
      const saved = store.library.save({ ...(id === undefined ? {} : { id }), name, text, files: kept });
      return { id: saved.id, name: saved.name, version: saved.version };
    },
    'library:import': async ({ text, source, files }) => importScenario(store, text, source, files ?? []),
    'library:upload-data': async ({ name, base64 }) => uploadKeptFile(store.library, name, base64),
    'library:bundle': async ({ text, files }) => {
      checkKeptRefs(store.library, files);
      const name = checkedName(text, 'the scenario');
      const contents = files.map((f) => ({ name: f.name, content: store.library.keptFiles.content(f.hash) ?? Buffer.alloc(0) }));
      return { fileName: `${name}.bundle.json`, text: writeBundle(text, contents) };
    },
    'library:rename': async ({ id, name }) => {
      const text = withName(store.library.get(id).text, name);
      const checked = checkedName(text, `the new name '${name}'`);
      const saved = store.library.save({ id, name: checked, text });
      return { id: saved.id, name: saved.name, version: saved.version };
    },
    'library:delete': async ({ id, force }) => {
      const hashes = store.library.fileHashes(id);
      const { runs } = store.library.delete(id, force);
      // its files go with it, unless a run that read them or another scenario still names them
      store.library.keptFiles.dropUnnamed(hashes);
      return { deleted: true, runs };
    },
    'library:versions': async ({ id }) =>
      store.library.versions(id).map(({ versionId, version, savedAt, runs }) => ({
        version,
        savedAt,
        runs,
        text: store.library.version(versionId)?.text ?? '',
        files: store.library.files(versionId).map((f) => keptFileInfo(store.library, f)),
      })),
    'runs:scenario': async ({ runId }) => runScenarioSource(store, runId),
  };
}
