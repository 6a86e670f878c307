import Database from 'better-sqlite3';
import { REQUEST_COLUMNS, type RequestRow } from '../../contract/measurement.js';

/** SQL for how many raw request rows a database stores, in either shape (a row each, or packed: db/request-pack.ts). */
export const STORED_ROWS_SQL = '(SELECT count(*) FROM requests) + (SELECT coalesce(sum(rows), 0) FROM request_packs)';

/** How many raw request rows the database at `dbPath` stores (read-only, beside whoever has it open). */
export function storedRowCount(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return Number(db.prepare(`SELECT ${STORED_ROWS_SQL}`).pluck().get());
  } finally {
    db.close();
  }
}

/** Rows written a row each into the requests table, as every version before migration 28 stored them. */
export function insertTableRows(db: Database.Database, targetId: number, rows: readonly RequestRow[]): void {
  const columns = ['target_id', ...REQUEST_COLUMNS.map((c) => c.sql)];
  const insert = db.prepare(`INSERT INTO requests (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  db.transaction(() => {
    for (const row of rows) insert.run(targetId, ...REQUEST_COLUMNS.map((c) => row[c.name]));
  })();
}
