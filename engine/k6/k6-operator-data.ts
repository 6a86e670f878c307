import { basename, isAbsolute, resolve } from 'node:path';
import { LoadscopeError } from '../../contract/errors.js';
import type { Scenario } from '../../contract/scenario.js';
import { outsideOwnFolders } from '../run/consent-files.js';
import { readRegularFile } from '../regular-file.js';
import type { DataBase } from '../scenario/data-files.js';
import { CONFIGMAP_MAX_BYTES, type OperatorDataFile } from './k6-operator.js';
import { k6DataFileName } from './k6-data.js';

// A scenario's data files for the k6-operator: each goes into a ConfigMap of its own (k6-operator.ts),
// so each may be as big as a ConfigMap holds (1 MiB) rather than all of them together. A file is
// read as a run reads it (UTF-8 text, engine/regular-file.ts) and carried as those bytes: k6's open()
// in a runner then reads the text the native driver would. In the pod it is the file's base name in
// the data folder, where the script looks (part C's data runtime: `dataDir` + the base name).

const bad = (message: string) => new LoadscopeError('LS_ERR_BAD_REQUEST', message);

/** The file name a data file has in the runners' data folder, or why Kubernetes could not mount it there. */
function mountName(file: string, at: string): string {
  const name = basename(file);
  // a ConfigMap item's path: relative, never `..` (Kubernetes refuses it); '.' names no file
  if (name === '' || name === '.' || name.startsWith('..')) throw bad(`${at}: ${JSON.stringify(file)} has no file name a pod can mount (Kubernetes refuses '', '.' and '..')`);
  return name;
}

/**
 * Every data file of the scenario, read and checked for a ConfigMap: relative paths from `base` (the
 * scenario's folder); files outside its own folders only with `allowFiles` (the YAML carries their
 * text to whoever it is handed to, as --allow-files says for TLS files).
 */
export function operatorDataFiles(scenario: Pick<Scenario, 'data'>, base: DataBase, allowFiles: boolean): OperatorDataFile[] {
  const entries = (scenario.data ?? []).map((d, i) => {
    const at = `data[${i}].file`;
    if (!isAbsolute(d.file) && base === null) throw bad(`${at}: ${JSON.stringify(d.file)} is relative, and this scenario has no folder to start from`);
    return { at, path: base === null ? d.file : resolve(base, d.file), name: mountName(d.file, at) };
  });
  const outside = allowFiles ? [] : outsideOwnFolders(entries.map((e) => e.path), base);
  if (outside.length > 0) {
    throw new LoadscopeError('LS_ERR_NEEDS_CONSENT', `this YAML would carry data files from outside the scenario's folder: ${outside.map((f) => JSON.stringify(f)).join(', ')} (copied into ConfigMaps); pass --allow-files`);
  }
  const seen = new Map<string, string>();
  return entries.map(({ at, path, name }, index) => {
    const earlier = seen.get(name);
    if (earlier !== undefined) throw bad(`${at}: its file name ${JSON.stringify(name)} is also ${earlier}'s; in the runners' data folder each file needs a name of its own`);
    seen.set(name, at);
    const read = readRegularFile(path, CONFIGMAP_MAX_BYTES, 'a data file in a ConfigMap');
    if ('refused' in read) throw bad(`${at}: ${path} ${read.refused}`);
    const bytes = Buffer.from(read.text, 'utf8');
    // bytes that are not UTF-8 read as U+FFFD (3 bytes each): the text can outgrow the file
    if (bytes.length > CONFIGMAP_MAX_BYTES) throw bad(`${at}: ${path} is ${bytes.length} bytes as UTF-8 text; a data file in a ConfigMap may have at most 1 MiB`);
    return { index, name, bytes };
  });
}

/**
 * What the ConfigMaps carry: each checked file's rows as the script opens them (k6-data.ts's
 * `data-<i>.json`, the rows Loadscope parsed, so runners read what the native driver reads), under
 * that name. The files as written were checked above (consent, names, 1 MiB); the rows are bounded
 * again by the ConfigMap (k6-operator.ts), since JSON can outgrow the CSV it came from.
 */
export function operatorRowFiles(checked: readonly OperatorDataFile[], rows: readonly { name: string; text: string }[]): OperatorDataFile[] {
  return checked.map((f) => {
    const name = k6DataFileName(f.index);
    const text = rows.find((r) => r.name === name)?.text;
    if (text === undefined) throw bad(`data[${f.index}]: no rows were read for it`);
    return { index: f.index, name, bytes: Buffer.from(text, 'utf8') };
  });
}
