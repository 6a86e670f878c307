import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import type { DataFile, Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { variableIssues, type DataSet } from '../../contract/variables.js';
import { readRegularFile } from '../regular-file.js';
import { formatPath } from './param-path.js';
import { ScenarioInvalidError } from './errors.js';
import { requestSizeIssues } from './request-bounds.js';

// csv-parse is loaded on the first CSV file read, not with this module: `validate` and `scenarios` of
// scenarios without CSV data never parse its ~15 files (issue 42's start-up). Its CommonJS build, one
// file, is the same parser; a synchronous require keeps dataTableOf synchronous.
let csvParse: typeof import('csv-parse/sync').parse | undefined;
const parse: typeof import('csv-parse/sync').parse = (...args: Parameters<typeof import('csv-parse/sync').parse>) =>
  (csvParse ??= (createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync')).parse)(...args);

// A scenario's data files (its `data` list), read once at the run's start: CSV through csv-parse,
// JSON lines one object a line. Every value is text (what a placeholder inserts). Limits keep a run
// from loading a file the machine cannot hold; each problem is an issue at the entry's path. No
// problem quotes the file: a scenario may name /etc/shadow or a key, and its errors reach the UI, so
// they say where (line, column number) and what is wrong, never the text found there.

export const DATA_LIMITS = { bytes: 32 * 1024 * 1024, rows: 1_000_000, columns: 256 } as const;

/** A problem of a data file in our own words: the only message shown (a library's may quote the file). */
class DataProblem extends Error {}

/** Where a scenario's relative data paths start: its file's folder (a built-in's: its folder), or null when it has none. */
export type DataBase = string | null;

function rowsOfJsonl(text: string): { columns: string[]; rows: string[][] } {
  const columns: string[] = [];
  const index = new Map<string, number>();
  const objects: Record<string, unknown>[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // V8's message quotes the line
      throw new DataProblem(`line ${i + 1} is not JSON`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DataProblem(`line ${i + 1} is not a JSON object`);
    for (const key of Object.keys(value)) {
      if (index.has(key)) continue;
      if (columns.length >= DATA_LIMITS.columns) throw new DataProblem(`more than ${DATA_LIMITS.columns} columns`);
      index.set(key, columns.length);
      columns.push(key);
    }
    objects.push(value as Record<string, unknown>);
    if (objects.length > DATA_LIMITS.rows) throw new DataProblem(`more than ${DATA_LIMITS.rows} rows`);
  });
  // a value is text: a string as it is, null or missing empty, anything else as JSON
  const asText = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  return { columns, rows: objects.map((o) => columns.map((c) => asText(Object.hasOwn(o, c) ? o[c] : undefined))) };
}

/** csv-parse's problems in our words: its own messages quote the field they stopped at. */
const CSV_PROBLEMS: Record<string, string> = {
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'has a different number of fields than the first line',
  CSV_QUOTE_NOT_CLOSED: 'opens a quoted field that is never closed',
  INVALID_OPENING_QUOTE: 'has a quote inside a field that does not start with one',
  CSV_INVALID_CLOSING_QUOTE: 'has text right after a closing quote',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'has text right after a closing quote',
  CSV_MAX_RECORD_SIZE: 'holds a record over 1 MiB',
};

function csvProblem(err: unknown): DataProblem {
  const { code, lines } = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; lines?: unknown };
  const problem = typeof code === 'string' ? CSV_PROBLEMS[code] : undefined;
  const where = typeof lines === 'number' ? `line ${lines}` : 'a line';
  return new DataProblem(`not a CSV: ${where} ${problem ?? `cannot be read (${typeof code === 'string' ? code : 'parse error'})`}`);
}

function rowsOfCsv(text: string): { columns: string[]; rows: string[][] } {
  // the first record names the columns; every record must have as many fields (csv-parse says where not)
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'], max_record_size: 1024 * 1024, to: DATA_LIMITS.rows + 2 }) as string[][];
  } catch (err) {
    throw csvProblem(err);
  }
  const [header, ...rows] = records;
  if (header === undefined) throw new DataProblem('it is empty: the first line names the columns');
  if (header.length > DATA_LIMITS.columns) throw new DataProblem(`more than ${DATA_LIMITS.columns} columns`);
  if (rows.length > DATA_LIMITS.rows) throw new DataProblem(`more than ${DATA_LIMITS.rows} rows`);
  const first = new Map<string, number>();
  header.forEach((name, i) => {
    if (name.trim() === '') throw new DataProblem(`column ${i + 1} of the first line has no name`);
    const earlier = first.get(name);
    if (earlier !== undefined) throw new DataProblem(`columns ${earlier + 1} and ${i + 1} of the first line have the same name`);
    first.set(name, i);
  });
  return { columns: header, rows };
}

/** A data file as a table of text, or its problem in our words (never quoting it). */
export type DataTable = { columns: string[]; rows: string[][] } | { problem: string };

/** A data file's text as a table, or the problem in our words (never quoting it). */
export function dataTableOf(text: string, format: DataFile['format']): DataTable {
  try {
    return format === 'jsonl' ? rowsOfJsonl(text) : rowsOfCsv(text);
  } catch (err) {
    if (!(err instanceof DataProblem)) return { problem: `cannot be read as ${format === 'jsonl' ? 'JSON lines' : 'CSV'} (${err instanceof Error ? err.name : 'error'})` };
    return { problem: err.message };
  }
}

/**
 * The data files kept with a library scenario (engine/library/kept-data.ts): its relative data
 * paths name them, each read as a table in the format its entry says when asked. A name whose
 * content is no longer stored (an upload never saved) maps to null.
 */
export type KeptData = ReadonlyMap<string, ((format: DataFile['format']) => DataTable) | null>;

function setOf(d: DataFile, table: DataTable, where: string, at: string): DataSet | ScenarioIssue {
  if ('problem' in table) return { path: at, message: `${where}: ${table.problem}` };
  // a phase reading it could send nothing
  if (table.rows.length === 0) return { path: at, message: `${where} has no rows${d.format === 'csv' ? ' below its header' : ''}` };
  return { name: d.name, order: d.order, columns: table.columns, rows: table.rows };
}

function readKept(d: DataFile, at: string, kept: KeptData): DataSet | ScenarioIssue {
  const read = kept.get(d.file);
  if (read === undefined) {
    const names = [...kept.keys()];
    const has = names.length === 0 ? 'it keeps none' : `it keeps ${names.map((n) => `'${n}'`).join(', ')}`;
    return { path: at, message: `'${d.file}' is not a data file kept with this scenario (${has}): upload it in the editor's Data files` };
  }
  if (read === null) return { path: at, message: `'${d.file}' was uploaded but is no longer stored (an upload not saved is kept for a day): upload it again` };
  return setOf(d, read(d.format), `'${d.file}'`, at);
}

function readOne(d: DataFile, i: number, base: DataBase, kept: KeptData | null): DataSet | ScenarioIssue {
  const at = `data[${i}].file`;
  if (!isAbsolute(d.file) && kept !== null) return readKept(d, at, kept);
  if (!isAbsolute(d.file) && base === null) {
    return { path: at, message: `'${d.file}' is relative, and this scenario has no folder to start from (run it from its file, or give an absolute path)` };
  }
  const file = base === null ? d.file : resolve(base, d.file);
  // not read at all when too big (reading it is the memory problem the limit prevents) or not a regular file
  const read = readRegularFile(file, DATA_LIMITS.bytes, 'a data file');
  if ('refused' in read) return { path: at, message: `${file} ${read.refused}` };
  return setOf(d, dataTableOf(read.text, d.format), file, at);
}

/** Where a library scenario's data comes from: its kept files; keptOnly: its absolute paths are not read (a save or an editor's check, which no consent covers, never reads the disk). */
export interface DataFrom {
  kept?: KeptData | null;
  keptOnly?: boolean;
}

/**
 * Reads every data file of the scenario (a relative path from `from.kept` when the scenario keeps
 * its files in the library, else beside `base`) and checks each `{{data.<column>}}` of every cell against
 * its file's columns, and each request's size with the values known; throws ScenarioInvalidError
 * naming each entry or field.
 */
export function readDataFiles(scenario: Scenario, cells: readonly { scenario: Scenario }[], base: DataBase, sourceName: string, from: DataFrom = {}): DataSet[] {
  const issues: ScenarioIssue[] = [];
  const sets: DataSet[] = [];
  (scenario.data ?? []).forEach((d, i) => {
    if (from.kept && from.keptOnly && isAbsolute(d.file)) return;
    const read = readOne(d, i, base, from.kept ?? null);
    if ('rows' in read) sets.push(read);
    else issues.push(read);
  });
  if (issues.length === 0) {
    const columns = new Map(sets.map((s) => [s.name, new Set(s.columns)]));
    const seen = new Set<string>();
    for (const cell of cells) {
      for (const issue of variableIssues(cell.scenario, (name) => columns.get(name) ?? null)) {
        const path = formatPath(issue.path);
        if (!seen.has(`${path} ${issue.message}`)) issues.push({ path, message: issue.message });
        seen.add(`${path} ${issue.message}`);
      }
    }
    // with the values known: a request their uses would make too big (request-bounds.ts)
    for (const cell of issues.length === 0 ? cells : []) {
      for (const issue of requestSizeIssues(cell.scenario, sets)) {
        if (!seen.has(`${issue.path} ${issue.message}`)) issues.push(issue);
        seen.add(`${issue.path} ${issue.message}`);
      }
    }
  }
  if (issues.length > 0) throw new ScenarioInvalidError(sourceName, issues);
  return sets;
}
