import { LoadscopeError } from '../../contract/errors.js';
import { keptFormatOf, keptNameProblem, keptSizeProblem, type KeptFile, type KeptFileRef } from '../../contract/kept-files.js';
import type { ScenarioLibrary } from '../../db/scenario-library.js';
import type { DataFile } from '../../contract/scenario.js';
import { dataTableOf, type DataTable, type KeptData } from '../scenario/data-files.js';

// The engine's side of data files kept with library scenarios (contract/kept-files.ts): what may be
// kept (a plain name, at most 2 MiB of UTF-8 text that reads as CSV or JSON lines with rows), and
// the kept data a run or a validation reads. Every refusal is one line naming the file and never a
// byte of it (a data file may hold credentials). An upload is stored before any save names it; what
// nothing names is dropped after a day, and uploads waiting for a save never total more than 64 MiB.

const UNSAVED_FOR_MS = 24 * 60 * 60 * 1000;
const UNSAVED_MAX_BYTES = 64 * 1024 * 1024;

// The editor validates on every pause in typing, and a 2 MiB CSV took 100-400 ms to read as a table
// each time: the last few tables read are kept by content and format (a content's SHA-256 names the
// same bytes in any database, so engines in one process may share them), at most PARSED_KEPT.
const PARSED_KEPT = 4;
const parsed = new Map<string, DataTable>();

function tableFor(library: ScenarioLibrary, hash: string, format: DataFile['format']): DataTable {
  const key = `${hash}:${format}`;
  const hit = parsed.get(key);
  parsed.delete(key);
  const table = hit ?? dataTableOf(library.keptFiles.content(hash)?.toString('utf8') ?? '', format);
  parsed.set(key, table);
  for (const oldest of parsed.keys()) {
    if (parsed.size <= PARSED_KEPT) break;
    parsed.delete(oldest);
  }
  return table;
}

const refuse = (message: string) => new LoadscopeError('LS_ERR_BAD_REQUEST', message);

/** Why `content` cannot be a data file's text, or null: binary (a NUL byte) or not UTF-8. */
function textProblem(content: Buffer): string | null {
  if (content.includes(0)) return 'is binary (it holds NUL bytes), not CSV or JSON-lines text';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return 'is not UTF-8 text';
  }
  return null;
}

/** The kept file `content` makes under `name`, or a one-line refusal: every check a run's read makes, before anything is stored. */
export function checkedKeptFile(name: string, content: Buffer): Omit<KeptFile, 'hash'> {
  const badName = keptNameProblem(name);
  if (badName !== null) throw refuse(`'${name.slice(0, 200)}' cannot be kept: ${badName}`);
  const tooBig = keptSizeProblem(name, content.length);
  if (tooBig !== null) throw refuse(tooBig);
  const notText = textProblem(content);
  if (notText !== null) throw refuse(`${name} ${notText}`);
  const format = keptFormatOf(name);
  const table = dataTableOf(content.toString('utf8'), format);
  if ('problem' in table) throw refuse(`${name}: ${table.problem}`);
  if (table.rows.length === 0) throw refuse(`${name} has no rows${format === 'csv' ? ' below its header' : ''}`);
  return { name, bytes: content.length, format, rows: table.rows.length, columns: table.columns };
}

/** The size base64 text decodes to, without decoding it (a refused upload is never held twice). */
function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** `library:upload-data`: the file checked, then stored until a save keeps it (or a day passes). */
export function uploadKeptFile(library: ScenarioLibrary, name: string, base64: string): KeptFile {
  const tooBig = keptSizeProblem(name, decodedBytes(base64));
  if (tooBig !== null) throw refuse(tooBig);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) throw refuse(`${name.slice(0, 200)}: the upload is not base64`);
  return keepUpload(library, name, Buffer.from(base64, 'base64'));
}

/** A file the engine made for a draft (an API description's data file) kept as the editor's upload is: checked, stored until a save keeps it. */
export function keepUpload(library: ScenarioLibrary, name: string, content: Buffer): KeptFile {
  const info = checkedKeptFile(name, content);
  library.keptFiles.sweep(new Date(Date.now() - UNSAVED_FOR_MS).toISOString(), UNSAVED_MAX_BYTES);
  return { ...info, hash: library.keptFiles.put(content) };
}

/** A stored kept file as the editor lists it (rows and columns, never the text). */
export function keptFileInfo(library: ScenarioLibrary, ref: KeptFileRef): KeptFile {
  const bytes = library.keptFiles.size(ref.hash);
  const format = keptFormatOf(ref.name);
  if (bytes === undefined) return { ...ref, bytes: 0, format, rows: 0, columns: [] };
  const table = tableFor(library, ref.hash, format);
  return { ...ref, bytes, format, rows: 'rows' in table ? table.rows.length : 0, columns: 'columns' in table ? table.columns : [] };
}

/** What a run or a validation reads for `refs`: each name's table when asked, null where its content is no longer stored. */
export function keptDataOf(library: ScenarioLibrary, refs: readonly KeptFileRef[]): KeptData {
  return new Map(refs.map((r) => [r.name, library.keptFiles.has(r.hash) ? (format: DataFile['format']) => tableFor(library, r.hash, format) : null]));
}

/** A save's files, each a kept name whose content is stored; else a one-line refusal naming the first that is not. */
export function checkKeptRefs(library: ScenarioLibrary, refs: readonly KeptFileRef[]): void {
  for (const ref of refs) {
    const badName = keptNameProblem(ref.name);
    if (badName !== null) throw refuse(`'${ref.name}' cannot be kept: ${badName}`);
    if (!library.keptFiles.has(ref.hash)) throw refuse(`${ref.name} was uploaded but is no longer stored (an upload not saved is kept for a day): upload it again`);
  }
}
