import type { EngineHandlers } from '../../contract/api.js';
import { LoadscopeError } from '../../contract/errors.js';
import type { Store } from '../../db/store.js';
import { builtinScenarioNames } from '../scenario/builtin.js';
import { parseScenarioText } from '../scenario/parse-text.js';
import { prepareScenarioText } from '../scenario/prepare.js';
import { findNamedScenario, listAllScenarios, lookupScenario } from './lookup.js';
import { runScenarioSource } from './run-source.js';

type LibraryHandlers = Pick<
  EngineHandlers,
  'scenarios:list' | 'scenarios:get' | 'library:save' | 'library:import' | 'library:rename' | 'library:delete' | 'library:versions' | 'runs:scenario'
>;

/**
 * The text checked before anything is stored: a valid scenario (every issue named, with `source`),
 * whose name no built-in has. Returns its name.
 */
function checkedName(text: string, source: string): string {
  const { scenario } = prepareScenarioText(text, source);
  if (builtinScenarioNames().includes(scenario.name)) {
    throw new LoadscopeError('LS_ERR_SCENARIO_CONFLICT', `${source}: '${scenario.name}' is a built-in scenario's name; give yours another name`);
  }
  return scenario.name;
}

/** The text with its `name` replaced (a rename), keeping the rest as written. */
function withName(text: string, name: string): string {
  const value = parseScenarioText(text, 'the stored scenario');
  return JSON.stringify({ ...(value as Record<string, unknown>), name }, null, 2) + '\n';
}

export function libraryHandlers(store: Store): LibraryHandlers {
  return {
    'scenarios:list': async () => listAllScenarios(store),
    'scenarios:get': async ({ name }) => {
      const found = lookupScenario(store, name);
      return found.source === 'builtin' ? found : { name, text: found.text, source: 'library', id: found.id, version: found.version };
    },
    'library:save': async ({ id, text }) => {
      const name = checkedName(text, id === undefined ? 'the new scenario' : `the scenario`);
      const saved = store.library.save({ ...(id === undefined ? {} : { id }), name, text });
      return { id: saved.id, name: saved.name, version: saved.version };
    },
    'library:import': async ({ text, source }) => {
      const name = checkedName(text, source);
      if (findNamedScenario(store, name)) {
        throw new LoadscopeError('LS_ERR_SCENARIO_CONFLICT', `${source}: the library already has a scenario named '${name}'; rename it in the file or in the library first`);
      }
      const saved = store.library.save({ name, text });
      return { id: saved.id, name: saved.name, version: saved.version };
    },
    'library:rename': async ({ id, name }) => {
      const text = withName(store.library.get(id).text, name);
      const checked = checkedName(text, `the new name '${name}'`);
      const saved = store.library.save({ id, name: checked, text });
      return { id: saved.id, name: saved.name, version: saved.version };
    },
    'library:delete': async ({ id, force }) => ({ deleted: true, runs: store.library.delete(id, force).runs }),
    'library:versions': async ({ id }) =>
      store.library.versions(id).map(({ versionId, version, savedAt, runs }) => ({ version, savedAt, runs, text: store.library.version(versionId)?.text ?? '' })),
    'runs:scenario': async ({ runId }) => runScenarioSource(store, runId),
  };
}
