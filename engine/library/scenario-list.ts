import type { EngineHandlers, ScenarioListItem } from '../../contract/api.js';
import type { Store } from '../../db/store.js';
import { listBuiltinsIndexed } from '../scenario/builtin-index.js';

// `scenarios:list` on its own (engine.ts imports it on its first call, apart from the library's
// other calls): the built-ins from the build's index, the library's scenarios each from its full
// parse, whose modules are imported only when the library holds one. So `loadscope scenarios` with
// an empty library builds no scenario schema (issue 42).

/** Built-ins then the library, each with what the pickers show; a broken one is listed with its error. */
export async function listAllScenarios(store: Store): Promise<ScenarioListItem[]> {
  const entries = store.library.list();
  const builtins = await listBuiltinsIndexed();
  if (entries.length === 0) return builtins;
  const { libraryItem } = await import('./library-item.js');
  return [...builtins, ...entries.map(libraryItem)];
}

export function scenarioListHandlers(store: Store): Pick<EngineHandlers, 'scenarios:list'> {
  return { 'scenarios:list': async () => listAllScenarios(store) };
}
