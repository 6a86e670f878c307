import Database from 'better-sqlite3';

/**
 * Every table's row count in the database at `dbPath` (read-only, beside whoever has it open): a
 * test takes it before and after a refused input and expects it unchanged, so "nothing stored" is
 * asked of the store itself, not of what one part remembers writing.
 */
export function rowCounts(dbPath: string): Record<string, number> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    return Object.fromEntries(tables.map((t) => [t, Number(db.prepare(`SELECT count(*) FROM "${t.replaceAll('"', '""')}"`).pluck().get())]));
  } finally {
    db.close();
  }
}
