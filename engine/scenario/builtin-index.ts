import { readFileSync, statSync } from 'node:fs';
import { distPath } from '../paths.js';
import { builtinDir, builtinScenarioNames, readBuiltinScenarioText } from './builtin.js';
import type { BuiltinScenarioItem } from './builtin-list.js';

// The built-ins' listing entries as the build computed them (write-builtin-index.ts), each beside
// the text it was computed from: `loadscope scenarios` and the pickers list the built-ins without
// parsing each through the whole scenario schema (most of `scenarios`' start-up, issue 42). An entry
// is used only when the file's text is still exactly the one it came from; any other built-in (a
// file edited or added since the build, no index at all, another folder) is listed from its full
// parse (builtin-list.ts, imported only then), so the listing is always what a full parse says.

/** Where the build writes the index (dist/, beside the code that reads it). */
export const BUILTIN_INDEX_FILE = 'engine/scenario/builtin-index.json';

/** At most this many bytes of index are read (the package's is ~50 KB). */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;

export interface BuiltinIndex {
  [name: string]: { text: string; item: BuiltinScenarioItem };
}

/** The index the build wrote, or an empty one when there is none or it cannot be read as one. */
function readIndex(file: string | null): BuiltinIndex {
  if (file === null) return {};
  try {
    // sized before it is read: a file that is not a regular one, or far bigger than ours, is not ours
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile() || stat.size > MAX_INDEX_BYTES) return {};
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as BuiltinIndex) : {};
  } catch {
    return {};
  }
}

const isEntry = (e: unknown, text: string): e is { text: string; item: BuiltinScenarioItem } =>
  typeof e === 'object' && e !== null && (e as { text?: unknown }).text === text && typeof (e as { item?: unknown }).item === 'object' && (e as { item?: unknown }).item !== null;

/**
 * Every built-in's listing entry, as listBuiltinScenarios gives it, parsing only those the index
 * does not hold; the build's index is read for the package's own built-ins only.
 */
export async function listBuiltinsIndexed(dir = builtinDir(), indexFile: string | null = dir === builtinDir() ? distPath(BUILTIN_INDEX_FILE) : null): Promise<BuiltinScenarioItem[]> {
  const index = readIndex(indexFile);
  const items: BuiltinScenarioItem[] = [];
  let full: typeof import('./builtin-list.js') | undefined;
  for (const name of builtinScenarioNames(dir)) {
    const text = readBuiltinScenarioText(name, dir);
    const kept = Object.hasOwn(index, name) ? index[name] : undefined;
    if (isEntry(kept, text)) items.push(kept.item);
    else items.push((full ??= await import('./builtin-list.js')).builtinItem(name, text));
  }
  return items;
}
