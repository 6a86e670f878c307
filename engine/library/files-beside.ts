import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import { KEPT_FILE_MAX_BYTES, keptNameProblem } from '../../contract/kept-files.js';
import { readRegularFile } from '../regular-file.js';
import { parseScenarioText } from '../scenario/parse-text.js';

// A scenario file's data files, read from beside it so they travel with it: into the library
// (`loadscope scenarios import`) or into a bundle (`loadscope scenarios export <file>`). Only the
// relative paths its `data` names are read, each below its folder under a name the library can keep
// (a symlink out of the folder is refused: a shared folder's users.csv may lead to a key), as regular
// files of at most the kept size; absolute paths stay as they are (a run reads them with
// the person's consent). A problem is one line naming the entry, never a byte of the file.

/** Whether `file`'s real path is below `folder`'s (a file that does not exist is left to the read's own answer). */
function staysBelow(file: string, folder: string): boolean {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return true;
  }
  const rel = relative(realpathSync(folder), real);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The relative data files `text` (the scenario at `path`) names, read beside it: [{name, content}]. */
export function dataFilesBeside(path: string, text: string): { name: string; content: Buffer }[] {
  const value = parseScenarioText(text, path);
  const data = typeof value === 'object' && value !== null && 'data' in value && Array.isArray(value.data) ? (value.data as unknown[]) : [];
  const files: { name: string; content: Buffer }[] = [];
  const seen = new Set<string>();
  data.forEach((entry, i) => {
    const file = typeof entry === 'object' && entry !== null && 'file' in entry ? entry.file : undefined;
    if (typeof file !== 'string' || isAbsolute(file) || seen.has(file)) return;
    seen.add(file);
    const at = `${path}: data[${i}].file`;
    const badName = keptNameProblem(file);
    if (badName !== null) throw new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${at}: '${file}' cannot travel with the scenario: ${badName} (move the file beside the scenario, or give an absolute path)`);
    const full = resolve(dirname(path), file);
    if (!staysBelow(full, dirname(path))) throw new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${at}: ${full} leads outside the scenario's folder (a symlink); copy the file there to take it along`);
    const read = readRegularFile(full, KEPT_FILE_MAX_BYTES, 'a data file kept with a library scenario');
    if ('refused' in read) throw new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${at}: ${full} ${read.refused}`);
    files.push({ name: file, content: Buffer.from(read.text, 'utf8') });
  });
  return files;
}
