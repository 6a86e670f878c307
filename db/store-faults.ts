import Database from 'better-sqlite3';
import { LoadscopeError } from '../contract/errors.js';
import { schemaVersion } from './migrate.js';
import { SCHEMA_VERSION } from './migrations/index.js';

// How the store behaves when the disk will not take writes: it opens read-only (history stays
// readable; starting a run says why it cannot), and every SQLite error that reaches a person
// carries SQLite's code.

/** SQLite's (or the file system's) code of an error, if it has one. */
export function sqliteCode(err: unknown): string | null {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : null;
  return typeof code === 'string' && /^(SQLITE_|E[A-Z]+$)/.test(code) ? code : null;
}

/** "message (SQLITE_FULL)": the reason as a person reads it, with the code to search for. */
export function describeDbError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = sqliteCode(err);
  return code !== null && !message.includes(code) ? `${message} (${code})` : message;
}

/** Codes that mean "this file cannot be written here", as opposed to "this is not a database". */
export function isCannotWrite(err: unknown): boolean {
  const code = sqliteCode(err) ?? '';
  return /^SQLITE_(READONLY|CANTOPEN|FULL|IOERR|PERM|AUTH|BUSY|LOCKED)/.test(code) || ['EACCES', 'EROFS', 'EPERM', 'ENOSPC'].includes(code);
}

/** Throws (SQLITE_READONLY, SQLITE_FULL, ...) when the database cannot be written; writes nothing. */
export function probeWritable(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.pragma(`user_version = ${schemaVersion(db)}`);
  } finally {
    db.exec('ROLLBACK');
  }
}

/** The file opened read-only, when it is a current Loadscope database; else null. */
export function openReadOnly(path: string, nativeBinding?: string): Database.Database | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    db.pragma('busy_timeout = 5000');
    if (schemaVersion(db) !== SCHEMA_VERSION) {
      db.close();
      return null;
    }
    return db;
  } catch {
    db?.close();
    return null;
  }
}

export function readOnlyError(path: string, why: string): LoadscopeError {
  return new LoadscopeError('LS_ERR_DB', `the database at ${path} is open read-only (${why}): stored runs can be read, nothing can be stored; free disk space or fix its permissions`);
}
