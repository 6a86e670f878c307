import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { DataFile, Scenario, ScenarioIssue } from '../../contract/scenario.js';
import { variableIssues, type DataSet } from '../../contract/variables.js';
import { formatPath } from './param-path.js';
import { ScenarioInvalidError } from './errors.js';
import { requestSizeIssues } from './request-bounds.js';

// A scenario's data files (its `data` list), read once at the run's start: CSV through csv-parse,
// JSON lines one object a line. Every value is text (what a placeholder inserts). Limits keep a run
// from loading a file the machine cannot hold; each problem is an issue at the entry's path.

export const DATA_LIMITS = { bytes: 32 * 1024 * 1024, rows: 1_000_000, columns: 256 } as const;

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
    } catch (err) {
      throw new Error(`line ${i + 1} is not JSON (${(err as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`line ${i + 1} is not a JSON object`);
    for (const key of Object.keys(value)) {
      if (index.has(key)) continue;
      if (columns.length >= DATA_LIMITS.columns) throw new Error(`more than ${DATA_LIMITS.columns} columns`);
      index.set(key, columns.length);
      columns.push(key);
    }
    objects.push(value as Record<string, unknown>);
    if (objects.length > DATA_LIMITS.rows) throw new Error(`more than ${DATA_LIMITS.rows} rows`);
  });
  // a value is text: a string as it is, null or missing empty, anything else as JSON
  const asText = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  return { columns, rows: objects.map((o) => columns.map((c) => asText(Object.hasOwn(o, c) ? o[c] : undefined))) };
}

function rowsOfCsv(text: string): { columns: string[]; rows: string[][] } {
  // the first record names the columns; every record must have as many fields (csv-parse says where not)
  const records = parse(text, { bom: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n'], max_record_size: 1024 * 1024, to: DATA_LIMITS.rows + 2 }) as string[][];
  const [header, ...rows] = records;
  if (header === undefined) throw new Error('it is empty: the first line names the columns');
  if (header.length > DATA_LIMITS.columns) throw new Error(`more than ${DATA_LIMITS.columns} columns`);
  if (rows.length > DATA_LIMITS.rows) throw new Error(`more than ${DATA_LIMITS.rows} rows`);
  const seen = new Set<string>();
  for (const name of header) {
    if (name.trim() === '') throw new Error('a column has no name in the first line');
    if (seen.has(name)) throw new Error(`column '${name}' is named twice in the first line`);
    seen.add(name);
  }
  return { columns: header, rows };
}

function readOne(d: DataFile, i: number, base: DataBase): DataSet | ScenarioIssue {
  const at = `data[${i}].file`;
  if (!isAbsolute(d.file) && base === null) {
    return { path: at, message: `'${d.file}' is relative, and this scenario has no folder to start from (run it from its file, or give an absolute path)` };
  }
  const file = base === null ? d.file : resolve(base, d.file);
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { path: at, message: `${file} is not a regular file` };
    size = stat.size;
  } catch {
    return { path: at, message: `no file ${file}` };
  }
  // not read at all when too big: reading it is the memory problem the limit prevents
  if (size > DATA_LIMITS.bytes) return { path: at, message: `${file} is ${size} bytes; a data file may have at most ${DATA_LIMITS.bytes}` };
  try {
    const text = readFileSync(file, 'utf8');
    const { columns, rows } = d.format === 'jsonl' ? rowsOfJsonl(text) : rowsOfCsv(text);
    // a phase reading it could send nothing
    if (rows.length === 0) return { path: at, message: `${file} has no rows${d.format === 'csv' ? ' below its header' : ''}` };
    return { name: d.name, order: d.order, columns, rows };
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]!;
    return { path: at, message: `${file}: ${message}` };
  }
}

/**
 * Reads every data file of the scenario and checks each `{{data.<column>}}` of every cell against
 * its file's columns, and each request's size with the values known; throws ScenarioInvalidError
 * naming each entry or field.
 */
export function readDataFiles(scenario: Scenario, cells: readonly { scenario: Scenario }[], base: DataBase, sourceName: string): DataSet[] {
  const issues: ScenarioIssue[] = [];
  const sets: DataSet[] = [];
  (scenario.data ?? []).forEach((d, i) => {
    const read = readOne(d, i, base);
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
