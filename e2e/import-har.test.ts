import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarRecorder } from '../engine/import-requests/test-support/har-recorder.js';
import { startJsonServerAuth } from '../engine/test-support/json-server-auth.js';
import { codeEditorText } from './test-support/code-editor.js';
import { scenarioEditor } from './test-support/scenario-editor.js';
import { shots } from './test-support/run-view.js';
import { useWorkbench } from './test-support/workbench.js';

// The Scenarios view's HAR import (issue 39), in Chromium on the real host: a session recorded
// against a real login service (json-server-auth) chosen through Import… (a .har used to be refused
// as "unknown key log") shows the engine's correlation proposals with their previews; one is kept,
// the other unticked; the journey opens in the editor valid, the kept token correlated and the
// unticked id left as recorded, its password kept with the draft as a data file is, not in the text.
// A 10 MiB HAR imports the same way (the host gives a file call its importer's limit, not 4 MiB).

const { page, byTestId } = useWorkbench();
const { waitValid } = scenarioEditor(page);
const USER = { email: 'grace@example.com', password: 'not-in-the-text-77' };
let dir = '';
let harFile = '';
let token = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-e2e-har-'));
  const service = await startJsonServerAuth({ users: [USER], items: [{ id: 1, name: 'seed' }] });
  try {
    const rec = new HarRecorder();
    const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const login = await rec.send('POST', `${service.url}/login`, json, JSON.stringify(USER));
    token = (JSON.parse(login.text) as { accessToken: string }).accessToken;
    const auth = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    const created = await rec.send('POST', `${service.url}/items`, { ...auth, 'Content-Type': 'application/json' }, JSON.stringify({ name: 'pen' }));
    await rec.send('GET', `${service.url}/items/${(JSON.parse(created.text) as { id: number }).id}`, auth);
    harFile = join(dir, 'session.har');
    rec.write(harFile);
  } finally {
    await service.stop();
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Doc {
  phases: { flow: boolean; requests: { name: string; path: string; headers?: Record<string, string>; body?: string; extract?: unknown }[] }[];
}

describe('Import a HAR in the Scenarios view', () => {
  it('a .har through Import…: the proposals with their previews, one accepted and one unticked, the journey opened valid', async () => {
    await byTestId('nav-scenarios').click();
    await byTestId('import-file').setInputFiles(harFile);
    const dialog = byTestId('import-har');
    await byTestId('har-preview').waitFor();
    const c1 = await byTestId('correlation-c1').innerText();
    expect(c1).toContain('{{vars.accessToken}} = "eyJhbGci…"');
    expect(c1).toContain('from step 1 POST /login, JSON accessToken');
    expect(c1).toContain('replaces in step 2 POST /items, headers.Authorization: Bearer {{vars.accessToken}}');
    expect(c1).toContain('replaces in step 3 GET /items/{id}, headers.Authorization: Bearer {{vars.accessToken}}');
    const c2 = await byTestId('correlation-c2').innerText();
    expect(c2).toContain('{{vars.items_id}} = "2" (1 chars)');
    expect(c2).toContain('from step 2 POST /items, JSON id');
    expect(c2).toContain('replaces in step 3 GET /items/{id}, path: /items/{{vars.items_id}}');
    expect(await byTestId('har-notes').innerText()).toContain('left out browser headers');
    expect(await dialog.innerText()).not.toContain(USER.password);
    await shots(page(), 'har-review', { show: byTestId('har-preview'), dir: '/tmp/shots-har' });

    // tick one by one: the id is left as recorded, the token kept
    await byTestId('correlation-c2').getByRole('checkbox').uncheck();
    expect(await byTestId('correlation-accept-all').isChecked()).toBe(false);
    await byTestId('har-open').click();
    await byTestId('import-notes').waitFor();
    expect(await byTestId('import-har').count()).toBe(0);
    await waitValid();

    await page().getByRole('radio', { name: 'Code' }).click();
    const text = await codeEditorText(page());
    const doc = JSON.parse(text) as Doc;
    expect(doc.phases[0]!.flow).toBe(true);
    expect(doc.phases[0]!.requests.map((r) => r.name)).toEqual(['POST /login', 'POST /items', 'GET /items/{id}']);
    expect(doc.phases[0]!.requests[0]!.extract).toEqual({ var: 'accessToken', from: 'json', path: 'accessToken' });
    expect(doc.phases[0]!.requests[2]!.headers!.Authorization).toBe('Bearer {{vars.accessToken}}');
    expect(doc.phases[0]!.requests[2]!.path).toBe('/items/2');
    expect(doc.phases[0]!.requests[0]!.body).toBe('{"email":"{{data.email}}","password":"{{data.password}}"}');
    expect(text).not.toContain(USER.password);
    expect(text).not.toContain(token);

    // the credentials kept with the draft, as an upload is: valid only because the data file is there
    expect(await byTestId('kept-file-credentials.csv').innerText()).toContain('credentials.csv');
    expect(await byTestId('import-notes').innerText()).toContain('moved 2 credential(s) (email, password) out of the scenario to credentials.csv');
    await page().getByRole('radio', { name: 'Form' }).click();
  });

  it('a 10 MiB HAR (the session beside 110 page scripts of 100 KiB): previewed and opened valid; the browser host used to refuse any body over 4 MiB', async () => {
    const session = JSON.parse(readFileSync(harFile, 'utf8')) as { log: { entries: { request: { url: string } }[] } };
    const origin = new URL(session.log.entries[0]!.request.url).origin;
    const script = { status: 200, headers: [], content: { mimeType: 'application/javascript', text: `/*${'x'.repeat(100 * 1024)}*/` } };
    const assets = Array.from({ length: 110 }, (_, i) => ({ startedDateTime: '2026-01-01T00:00:00.000Z', request: { method: 'GET', url: `${origin}/static/chunk-${i}.js`, headers: [] }, response: script }));
    session.log.entries.splice(1, 0, ...assets);
    const big = join(dir, 'big-session.har');
    writeFileSync(big, JSON.stringify(session));
    expect(statSync(big).size).toBeGreaterThan(10 * 1024 * 1024);

    await byTestId('nav-scenarios').click();
    await byTestId('import-file').setInputFiles(big);
    await byTestId('har-preview').waitFor();
    expect(await byTestId('har-notes').innerText()).toContain('static asset');
    await byTestId('har-open').click();
    await byTestId('import-notes').waitFor();
    await waitValid();
    await page().getByRole('radio', { name: 'Code' }).click();
    const doc = JSON.parse(await codeEditorText(page())) as Doc;
    expect(doc.phases[0]!.requests.map((r) => r.name)).toEqual(['POST /login', 'POST /items', 'GET /items/{id}']);
    await page().getByRole('radio', { name: 'Form' }).click();
  });

  it('a pasted HAR that is not one: one line in the dialog, nothing opened', async () => {
    await byTestId('import-har-open').click();
    await byTestId('har-text').fill('{"entries": []}');
    await byTestId('har-read').click();
    const error = byTestId('import-har').locator('[role="alert"]');
    await error.waitFor();
    expect(await error.innerText()).toContain('"pasted.har" is not a HAR file: log:');
    await page().keyboard.press('Escape');
    expect(await byTestId('import-har').count()).toBe(0);
  });
});
