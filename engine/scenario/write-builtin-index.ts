import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { distPath } from '../paths.js';
import { builtinScenarioNames, readBuiltinScenarioText } from './builtin.js';
import { BUILTIN_INDEX_FILE, type BuiltinIndex } from './builtin-index.js';
import { builtinItem } from './builtin-list.js';

// Writes the built-ins' listing index (builtin-index.ts) into dist/: scripts/build.mjs runs the
// compiled form after tsc. Each entry is builtin-list.ts's own, so the index cannot say otherwise.

export function writeBuiltinIndex(): string {
  const index: BuiltinIndex = {};
  for (const name of builtinScenarioNames()) {
    const text = readBuiltinScenarioText(name);
    index[name] = { text, item: builtinItem(name, text) };
  }
  const path = distPath(BUILTIN_INDEX_FILE);
  writeFileSync(path, JSON.stringify(index));
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeBuiltinIndex();
}
