import { LoadscopeError } from '../contract/errors.js';

// Rows come out of SQLite as unknown; these turn them into values without trusting them. A value of
// the wrong type means the file was damaged or written by something else: LS_ERR_DB, never a crash
// deeper in.

export type Row = Record<string, unknown>;

export function damaged(where: string, what: string): LoadscopeError {
  return new LoadscopeError('LS_ERR_DB', `stored ${where} is not valid (${what}); the database may be damaged or written by another program`);
}

export function asRow(value: unknown, where: string): Row {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw damaged(where, 'not a row');
  // A plain object from better-sqlite3: its keys are the selected columns.
  return Object.fromEntries(Object.entries(value));
}

export function rows(values: unknown[], where: string): Row[] {
  return values.map((v) => asRow(v, where));
}

export function num(row: Row, column: string, where: string): number {
  const v = row[column];
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw damaged(where, `${column} should be a number, got ${v === null ? 'NULL' : typeof v}`);
}

export function optNum(row: Row, column: string, where: string): number | null {
  return row[column] === null || row[column] === undefined ? null : num(row, column, where);
}

export function str(row: Row, column: string, where: string): string {
  const v = row[column];
  if (typeof v === 'string') return v;
  throw damaged(where, `${column} should be text, got ${v === null ? 'NULL' : typeof v}`);
}

export function optStr(row: Row, column: string, where: string): string | null {
  return row[column] === null || row[column] === undefined ? null : str(row, column, where);
}

/** Parses a JSON column; NULL stays null. The result is unknown until a schema checks it. */
export function json(row: Row, column: string, where: string): unknown {
  const text = optStr(row, column, where);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw damaged(where, `${column} is not JSON`);
  }
}

/** Turns a failed zod parse into LS_ERR_DB naming the first bad path. */
export function schemaError(where: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): LoadscopeError {
  const first = issues[0];
  const path = first ? first.path.map(String).join('.') : '';
  return damaged(where, first ? `${path || '(root)'}: ${first.message}` : 'schema check failed');
}
