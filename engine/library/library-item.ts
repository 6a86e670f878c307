import type { ScenarioListItem } from '../../contract/api.js';
import type { LibraryEntry } from '../../db/scenario-library.js';
import { ScenarioInvalidError } from '../scenario/errors.js';
import { parseScenarioText } from '../scenario/parse-text.js';
import { describeQuickProfile, prepareScenario } from '../scenario/prepare.js';
import { serverNames } from '../scenario/summary.js';

// A library scenario's listing entry, from its full parse (scenario-list.ts imports this only when
// the library has one): a broken one is listed with its error, not hidden.

export function libraryItem(e: LibraryEntry): ScenarioListItem {
  const base = { name: e.name, source: 'library' as const, id: e.id, version: e.version, updatedAt: e.updatedAt };
  try {
    const sourceName = `library scenario '${e.name}'`;
    const input = parseScenarioText(e.text, sourceName);
    const { scenario, cells } = prepareScenario(input, sourceName);
    const quickProfile = describeQuickProfile(input, sourceName);
    return { ...base, title: scenario.title ?? e.name, description: scenario.description ?? '', servers: serverNames(cells), phases: scenario.phases.length, cells: cells.length, quickProfile };
  } catch (err) {
    const error = err instanceof ScenarioInvalidError ? err.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : String(err);
    return { ...base, title: e.name, description: `invalid: ${error}`, servers: [], phases: 0, cells: 0, error };
  }
}
