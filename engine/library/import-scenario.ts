import { LoadscopeError } from '../../contract/errors.js';
import type { LibraryRef } from '../../contract/library.js';
import type { DataFile } from '../../contract/scenario.js';
import type { Store } from '../../db/store.js';
import { dataTableOf } from '../scenario/data-files.js';
import { looksLikeBundle, readBundle } from './bundle.js';
import { checkedName } from './checked-scenario.js';
import { checkedKeptFile } from './kept-data.js';
import { findNamedScenario } from './lookup.js';

// `library:import`: a scenario file's text, or a bundle exported with its data files, and any data
// files chosen with it, stored as one new library scenario, or nothing at all. Every check (each
// file's name, size, text and rows; the scenario; each relative data path kept) comes before the
// first write, and a save that still fails drops the contents it stored.

export function importScenario(store: Store, text: string, source: string, chosen: readonly { name: string; base64: string }[]): LibraryRef {
  const parts = looksLikeBundle(text) ? readBundle(text, source) : { text, files: [] };
  const files = [...parts.files, ...chosen.map((c) => ({ name: c.name, content: Buffer.from(c.base64, 'base64') }))];
  const names = new Set<string>();
  for (const f of files) {
    checkedKeptFile(f.name, f.content);
    if (names.has(f.name)) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${source}: two data files are named '${f.name}'`);
    names.add(f.name);
  }
  const name = checkedName(parts.text, source, new Map(files.map((f) => [f.name, (format: DataFile['format']) => dataTableOf(f.content.toString('utf8'), format)])));
  if (findNamedScenario(store, name)) {
    throw new LoadscopeError('LS_ERR_SCENARIO_CONFLICT', `${source}: the library already has a scenario named '${name}'; rename it in the file or in the library first`);
  }
  const refs = files.map((f) => ({ name: f.name, hash: store.library.keptFiles.put(f.content) }));
  try {
    const saved = store.library.save({ name, text: parts.text, files: refs });
    return { id: saved.id, name: saved.name, version: saved.version };
  } catch (err) {
    store.library.keptFiles.dropUnnamed(refs.map((r) => r.hash));
    throw err;
  }
}
