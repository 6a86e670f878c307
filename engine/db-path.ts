import { join } from 'node:path';
import envPaths from 'env-paths';

/** The database: --db, else LOADSCOPE_DB, else loadscope.db in the user's data folder. */
export function defaultDbPath(explicit?: string): string {
  if (explicit) return explicit;
  const fromEnv = process.env.LOADSCOPE_DB;
  if (fromEnv) return fromEnv;
  return join(envPaths('loadscope', { suffix: '' }).data, 'loadscope.db');
}
