import type Database from 'better-sqlite3';
import { LoadscopeError } from '../contract/errors.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export function schemaVersion(db: Database.Database): number {
  const version = db.pragma('user_version', { simple: true });
  return typeof version === 'number' ? version : 0;
}

/**
 * Brings the database up to the last migration, one transaction per step, so a failing step leaves
 * the database at the previous version. Each step re-reads the version under the write lock, so two
 * processes opening a fresh file at once do not both apply it. A database written by a newer
 * Loadscope is refused rather than guessed at.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS, where = 'the database'): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new LoadscopeError('LS_ERR_INTERNAL', `migration ${i + 1} is numbered ${m.version}; migrations must be 1..n in order`);
  });
  const latest = migrations.length;
  const found = schemaVersion(db);
  if (found > latest) {
    throw new LoadscopeError(
      'LS_ERR_DB',
      `${where} has schema version ${found}, newer than this Loadscope understands (${latest}); update Loadscope or use another database (--db / LOADSCOPE_DB)`,
    );
  }
  for (const m of migrations.slice(found)) {
    const step = db.transaction(() => {
      if (schemaVersion(db) >= m.version) return;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    });
    try {
      step.immediate();
    } catch (err) {
      throw new LoadscopeError('LS_ERR_DB', `${where}: migration ${m.version} (${m.description}) failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return schemaVersion(db);
}
