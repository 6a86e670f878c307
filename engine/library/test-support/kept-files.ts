import Database from 'better-sqlite3';
import type { ScenarioInput } from '../../../contract/scenario.js';
import { API_PASSWORD } from '../../../servers/workloads/api.js';
import type { Engine } from '../../engine.js';

// Shared by the kept-files tests: a library scenario whose logins come from a kept CSV, against the
// bundled API (servers/workloads/api.ts), where a login whose row did not reach it is a 401.

/** distinctive, so a test can tell they appear nowhere they should not */
export const USERS = ['ada-k7f3', 'bob-k7f3', 'cy-k7f3', 'dee-k7f3'];
export const usersCsv = (users: readonly string[] = USERS, password = API_PASSWORD) => `user,password\n${users.map((u) => `${u},${password}`).join('\n')}\n`;

/** One login per row of `users.csv` (order unique), each expected 200. */
export function loginScenario(name = 'kept-logins', file = 'users.csv'): ScenarioInput {
  return {
    name,
    servers: [{ architecture: 'single' }],
    data: [{ name: 'logins', file, order: 'unique' }],
    phases: [
      {
        name: 'login',
        executor: 'sequential',
        count: 100,
        data: 'logins',
        requests: [{ method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: '{"user":"{{data.user}}","password":"{{data.password}}"}', expect: { status: 200 } }],
      },
    ],
  };
}

export const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

/** Rows in the store's kept contents and version links, read beside the engine (WAL lets a reader in). */
export function storedKept(dbPath: string): { blobs: number; links: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const count = (table: string) => Number(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
    return { blobs: count('data_blobs'), links: count('library_version_files') };
  } finally {
    db.close();
  }
}

/** Runs a start request to its end: the run as read back. */
export async function runToEnd(engine: Engine, scenario: Parameters<Engine['handlers']['runs:start']>[0]['scenario']) {
  const { runId } = await engine.handlers['runs:start']({ scenario, quick: false, set: {} });
  await engine.waitForRun(runId);
  return engine.handlers['runs:get']({ runId });
}
