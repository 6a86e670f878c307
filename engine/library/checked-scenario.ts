import { LoadscopeError } from '../../contract/errors.js';
import { builtinScenarioNames } from '../scenario/builtin.js';
import { readDataFiles, type KeptData } from '../scenario/data-files.js';
import { prepareScenarioText } from '../scenario/prepare.js';

/**
 * The text checked before anything is stored: a valid scenario (every issue named, with `source`),
 * whose name no built-in has, and, given its kept files, whose relative data paths each name one of
 * them that reads as data (absolute paths are left to the run's consent). Returns its name.
 */
export function checkedName(text: string, source: string, kept?: KeptData): string {
  const { scenario, cells } = prepareScenarioText(text, source);
  if (builtinScenarioNames().includes(scenario.name)) {
    throw new LoadscopeError('LS_ERR_SCENARIO_CONFLICT', `${source}: '${scenario.name}' is a built-in scenario's name; give yours another name`);
  }
  if (kept !== undefined) readDataFiles(scenario, cells, null, source, { kept, keptOnly: true });
  return scenario.name;
}
