import { parse as parseYaml, YAMLError } from 'yaml';
import { readRegularFile } from '../regular-file.js';
import { nestingOverflow } from '../scenario/limits.js';
import { badImport, MAX_DESCRIPTION_BYTES, MAX_DESCRIPTION_NESTING, shown } from './limits.js';

// An API description's text (OpenAPI in JSON or YAML, a Postman collection in JSON) as a value: its
// size bounded before a byte is read or parsed, its nesting before JSON.parse recurses, YAML aliases
// by the yaml package's own bound. A problem is one line with where it is, never the text found there.

/** The text of a description file, or one line saying why not (too big, not a regular file). */
export function readDescriptionFile(path: string, what: string): string {
  const read = readRegularFile(path, MAX_DESCRIPTION_BYTES, what);
  if ('refused' in read) throw badImport(`${shown(path, 200)} ${read.refused}`);
  return read.text;
}

/** The same bound for text that arrived without a file (the UI's upload). */
export function refuseOversized(text: string, name: string, what: string): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_DESCRIPTION_BYTES) throw badImport(`${shown(name)} is ${bytes} bytes; ${what} may have at most ${MAX_DESCRIPTION_BYTES / (1024 * 1024)} MiB`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The description's value: JSON when it starts with { or [, else YAML when allowed. */
export function parseDescription(text: string, name: string, yamlAllowed: boolean): Record<string, unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const json = /^\s*[[{]/.test(body);
  let value: unknown;
  if (json || !yamlAllowed) {
    if (nestingOverflow(body, MAX_DESCRIPTION_NESTING) >= 0) throw badImport(`${shown(name)} is nested more than ${MAX_DESCRIPTION_NESTING} levels deep`);
    try {
      value = JSON.parse(body);
    } catch (err) {
      // the parser's message quotes the text: only its position is kept
      const at = /position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1];
      throw badImport(`${shown(name)} is not JSON${at === undefined ? '' : ` (at character ${at})`}`);
    }
  } else {
    try {
      value = parseYaml(body, { maxAliasCount: 100 });
    } catch (err) {
      // YAMLError's message shows the line it stopped at: only the code and position are kept
      if (err instanceof YAMLError) {
        const at = err.linePos?.[0];
        throw badImport(`${shown(name)} is not YAML (${err.code}${at === undefined ? '' : ` at line ${at.line}, column ${at.col}`})`);
      }
      // a stack overflow on flow collections nested without end, or the like
      throw badImport(`${shown(name)} cannot be read as YAML (${err instanceof Error ? err.name : 'error'})`);
    }
  }
  if (!isRecord(value)) throw badImport(`${shown(name)} is not ${yamlAllowed ? 'a JSON or YAML' : 'a JSON'} object`);
  return value;
}
