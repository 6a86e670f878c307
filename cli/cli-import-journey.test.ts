import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDir } from '../db/test-support/temp-store.js';
import { HarRecorder } from '../engine/import-requests/test-support/har-recorder.js';
import { rootPath } from '../engine/paths.js';
import { startJsonServerAuth, type JsonServerAuth } from '../engine/test-support/json-server-auth.js';
import type { RunJson } from './test-support/run-json.js';

// Issue 39's done-when for imports: a real REST service no one here wrote (json-server with
// json-server-auth: a bcrypt login answering a JWT, items guarded by Bearer), a real session against
// it recorded as a HAR (login, create an item, read, change and delete it by the id the creation
// answered), then `import-har` and `run` against a fresh start of the service: every step answered
// without error, the login from the credentials file beside the scenario, the token and the id from
// correlation. The fresh service starts with other items, so its new item's id is not the recorded
// one: without correlation the replay reads, changes and deletes an item that is not there.
// Build first (npm run build).

const BIN = rootPath('bin/loadscope.js');
const USER = { email: 'ada@example.com', password: 'correct-horse-42' };
/** When recorded: items 1..5, so the session's new item is 6. */
const RECORDED_ITEMS = [1, 2, 3, 4, 5].map((id) => ({ id, name: `seed ${id}` }));
/** The fresh service: no item 6, and its new item is 10. */
const FRESH_ITEMS = [1, 2, 3, 4, 5, 7, 8, 9].map((id) => ({ id, name: `seed ${id}` }));

const tmp = useTempDir('file');
let fresh: JsonServerAuth;
let token = '';

const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', timeout: 180_000 });
const errorsOf = (errors: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(errors).filter(([, n]) => n > 0));

beforeAll(async () => {
  const recorded = await startJsonServerAuth({ users: [USER], items: RECORDED_ITEMS });
  try {
    const rec = new HarRecorder();
    const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const login = await rec.send('POST', `${recorded.url}/login`, json, JSON.stringify(USER));
    token = (JSON.parse(login.text) as { accessToken: string }).accessToken;
    const auth = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    const created = await rec.send('POST', `${recorded.url}/items`, { ...auth, 'Content-Type': 'application/json' }, JSON.stringify({ name: 'pen', userId: 1 }));
    const id = (JSON.parse(created.text) as { id: number }).id;
    await rec.send('GET', `${recorded.url}/items/${id}`, auth);
    await rec.send('PATCH', `${recorded.url}/items/${id}`, { ...auth, 'Content-Type': 'application/json' }, JSON.stringify({ name: 'blue pen' }));
    await rec.send('DELETE', `${recorded.url}/items/${id}`, auth);
    expect([login.status, created.status, id]).toEqual([200, 201, 6]);
    rec.write(join(tmp.dir, 'session.har'));
  } finally {
    await recorded.stop();
  }
  fresh = await startJsonServerAuth({ users: [USER], items: FRESH_ITEMS });
}, 60_000);
afterAll(async () => {
  await fresh?.stop();
});

function run(file: string): RunJson {
  const out = cli(['run', file, '--json', '--db', join(tmp.dir, 'runs.db'), '--set', `servers[0].url=${fresh.url}`]);
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as RunJson;
}

/** The fresh service's items, read with a login of its own. */
async function freshItems(): Promise<number[]> {
  const login = await fetch(`${fresh.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(USER), signal: AbortSignal.timeout(10_000) });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const res = await fetch(`${fresh.url}/items`, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(10_000) });
  return ((await res.json()) as { id: number }[]).map((i) => i.id);
}

describe('a recorded login session against json-server-auth, imported and replayed', () => {
  it('import-har: a journey of the 5 steps, the token and the id proposed one line each, the credentials in a 0600 file and nowhere else', () => {
    const out = cli(['import-har', 'session.har', '--out', 'journey.json']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe('');
    const proposals = out.stderr.split('\n').filter((l) => l.startsWith('correlation '));
    expect(proposals).toEqual([
      expect.stringMatching(/^correlation c1 accepted: \{\{vars\.accessToken\}\} = "eyJhbGci…" \(\d+ chars\) from step 1 POST \/login, JSON accessToken; replaces step 2 headers\.Authorization, step 3 headers\.Authorization, step 4 headers\.Authorization, step 5 headers\.Authorization$/),
      'correlation c2 accepted: {{vars.items_id}} = "6" (1 chars) from step 2 POST /items, JSON id; replaces step 3 path, step 4 path, step 5 path',
    ]);
    expect(out.stderr).toContain('note: left out browser headers (accept-language, sec-ch-ua, sec-ch-ua-mobile, sec-fetch-dest, sec-fetch-mode, sec-fetch-site, user-agent)');
    const text = readFileSync(join(tmp.dir, 'journey.json'), 'utf8');
    const doc = JSON.parse(text) as { phases: { flow: boolean; requests: { name: string; path: string }[] }[] };
    expect(doc.phases[0]!.requests.map((r) => `${r.name} -> ${r.path}`)).toEqual([
      'POST /login -> /login',
      'POST /items -> /items',
      'GET /items/{id} -> /items/{{vars.items_id}}',
      'PATCH /items/{id} -> /items/{{vars.items_id}}',
      'DELETE /items/{id} -> /items/{{vars.items_id}}',
    ]);
    for (const secret of [USER.password, token]) {
      expect(text).not.toContain(secret);
      expect(out.stderr).not.toContain(secret);
    }
    expect(readFileSync(join(tmp.dir, 'journey.credentials.csv'), 'utf8')).toBe(`email,password\n${USER.email},${USER.password}\n`);
    expect(statSync(join(tmp.dir, 'journey.credentials.csv')).mode & 0o777).toBe(0o600);
    expect(cli(['validate', 'journey.json']).status).toBe(0);
  });

  it('run against a fresh start of the service: every step answered without error, each created item deleted again by its own id', async () => {
    const json = run('journey.json');
    expect(json.status).toBe('completed');
    const phase = json.servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => [e.name, e.count, errorsOf(e.errors)])).toEqual([
      ['POST /login', 3, {}],
      ['POST /items', 3, {}],
      ['GET /items/{id}', 3, {}],
      ['PATCH /items/{id}', 3, {}],
      ['DELETE /items/{id}', 3, {}],
    ]);
    expect(await freshItems()).toEqual(FRESH_ITEMS.map((i) => i.id));
  });

  it('--correlate none: the recorded id is sent as it was, the fresh service has no such item, and every user starts again there', () => {
    const out = cli(['import-har', 'session.har', '--out', 'literal.json', '--correlate', 'none']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toContain('correlation c2 not taken:');
    const phase = run('literal.json').servers[0]!.phases[0]!;
    const byName = Object.fromEntries(phase.endpoints.map((e) => [e.name, { count: e.count, errors: Object.values(e.errors).reduce((n, x) => n + x, 0) }]));
    // any error of a step starts the user's flow again: the steps after the read are never reached
    expect(byName['GET /items/{id}']!.errors).toBe(byName['GET /items/{id}']!.count);
    expect(byName['GET /items/{id}']!.count).toBeGreaterThan(0);
    expect(byName['PATCH /items/{id}']?.count ?? 0).toBe(0);
  });
});
