import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_PASSWORD, tokenFor } from '../../servers/workloads/api.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// Placeholders against the bundled API (servers/workloads/api.ts) on a real bundled server: a
// request whose values were not substituted fails there (a wrong password or token is a 401, a body
// that is not JSON a 400), so every request answered 200 is every placeholder substituted.

const temp = useTempEngine('variables-bundled');
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-vars-api-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('variables against the bundled API', () => {
  it('logins from a data file, items with a data token and a random id, an echo of every built-in', async () => {
    const users = ['ada', 'bob', 'cy', 'dee'];
    writeFileSync(join(dir, 'users.csv'), `user,password,token\n${users.map((u) => `${u},${API_PASSWORD},${tokenFor(u)}`).join('\n')}\n`);
    const scenario = {
      name: 'vars-api',
      servers: [{ architecture: 'single' }],
      data: [
        { name: 'logins', file: 'users.csv', order: 'unique' },
        { name: 'tokens', file: 'users.csv', order: 'random' },
      ],
      phases: [
        { name: 'login', executor: 'sequential', count: 100, data: 'logins', requests: [{ method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: '{"user":"{{data.user}}","password":"{{data.password}}"}', expect: { status: 200, bodyIncludes: '"token"' } }] },
        { name: 'items', executor: 'closed', users: 2, count: 20, data: 'tokens', requests: [{ path: '/api/items/{{randomInt 1 1000}}', headers: { Authorization: 'Bearer {{data.token}}' }, expect: { status: 200 } }] },
        { name: 'echo', executor: 'burst', count: 5, requests: [{ method: 'POST', path: '/api/echo', headers: { 'x-id': '{{uuid}}' }, body: '{"n":{{counter}},"u":{{user}},"ms":{{now}},"at":"{{isoTime}}"}', expect: { status: 200, bodyIncludes: '"at":"20' } }] },
      ],
    };
    const file = join(dir, 'vars-api.json');
    const text = JSON.stringify(scenario);
    writeFileSync(file, text);
    const { runId } = await temp.engine.handlers['runs:start']({ scenario: { text, origin: file }, quick: false, set: {} });
    await temp.engine.waitForRun(runId);
    const run = await temp.engine.handlers['runs:get']({ runId });
    expect(run.status, run.reason ?? '').toBe('completed');
    const [login, items, echo] = run.targets[0]!.phases;
    // unique: one login per row, then the phase ended early and the run says so
    expect(login).toMatchObject({ count: 4, ok: 4 });
    expect(run.engineNote).toBe("single: phase 'login' ended early: data 'logins' (order unique) ran out after its 4 rows");
    expect(items).toMatchObject({ count: 20, ok: 20 });
    expect(echo).toMatchObject({ count: 5, ok: 5 });
  });
});
