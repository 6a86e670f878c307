import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadscopeApi } from '../../contract/api.js';
import { BUNDLE_MAX_CHARS, KEPT_FILE_MAX_BYTES } from '../../contract/kept-files.js';
import { MAX_DESCRIPTION_BYTES, MAX_HAR_BYTES } from '../../contract/upload-limits.js';
import { rowCounts } from '../../db/test-support/row-counts.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { rootPath } from '../../engine/paths.js';
import { startBrowserHost, type BrowserHost } from './browser-host.js';
import { connectNode } from './test-support/node-client.js';

// Files brought in through the browser host (issue 39): a call that carries a file (a HAR, an API
// description, a data file) may send as much as its importer takes, and no more; every other call
// keeps the small body limit. Driven through a real host over real HTTP, with the renderer's own
// client, on a real engine and SQLite file: a 10 MiB HAR imports (before, any body over 4 MiB was
// refused, so the UI could not import what the CLI took); a file over its importer's limit, a body
// past its room, a recording of 10,000 requests, a 50 MB description, a description with cyclic
// references, secrets in headers and bodies: each a bounded one-line answer, no row stored (every
// table counted before and after), no file written, and the host answers the next call.

const SECRET = 'h0st-S3CRET-value';
const OAS = rootPath('node_modules/@readme/oas-examples');

let dir = '';
let engine: Engine;
let host: BrowserHost;
let api: LoadscopeApi;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-host-uploads-'));
  engine = createEngine({ dbPath: join(dir, 'runs.db') });
  host = await startBrowserHost({ engine, port: 0, staticDir: join(dir, 'no-renderer') });
  api = connectNode(`http://127.0.0.1:${host.port}`, host.token).api;
});
afterEach(async () => {
  await host.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const stored = () => rowCounts(join(dir, 'runs.db'));
/** What is in the engine's folder besides its database: an import writes nothing to the disk. */
const written = () => readdirSync(dir).filter((f) => !f.startsWith('runs.db'));

/** A HAR entry: a request to this machine, its response. */
function entry(method: string, url: string, headers: { name: string; value: string }[], body: string | null, response: { mimeType: string; text: string }) {
  return {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    request: { method, url, headers, ...(body === null ? {} : { postData: { mimeType: 'application/json', text: body } }) },
    response: { status: 200, headers: [{ name: 'Content-Type', value: response.mimeType }], content: response },
  };
}
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });

/** A session of a login and three API calls, with a secret in a header and a body, and the page's scripts: `assets` of `assetBytes` each. */
function session(assets: number, assetBytes: number): string {
  const json = [{ name: 'Content-Type', value: 'application/json' }];
  const script = { mimeType: 'application/javascript', text: `/* bundle */${'x'.repeat(assetBytes)}` };
  return har([
    entry('POST', 'http://127.0.0.1:9/api/login', json, JSON.stringify({ user: 'ada', password: SECRET }), { mimeType: 'application/json', text: '{"token":"tok-4f9a1b2c3d"}' }),
    ...Array.from({ length: assets }, (_, i) => entry('GET', `http://127.0.0.1:9/static/chunk-${i}.js`, [], null, script)),
    entry('GET', 'http://127.0.0.1:9/api/items', [{ name: 'X-Api-Key', value: SECRET }], null, { mimeType: 'application/json', text: '[{"id":1}]' }),
    entry('GET', 'http://127.0.0.1:9/api/items/1', [{ name: 'Authorization', value: 'Bearer tok-4f9a1b2c3d' }], null, { mimeType: 'application/json', text: '{"id":1}' }),
  ]);
}

/** The refusal of `call`, as the renderer's client sees it: its message. */
async function refusal(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected a refusal');
}

/** A POST to the host whose headers say `declared` bytes follow; only a little is sent: the answer. */
function postDeclaring(path: string, declared: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { host: `127.0.0.1:${host.port}`, 'content-type': 'application/json', 'content-length': String(declared), 'x-loadscope-token': host.token };
    const req = request({ host: '127.0.0.1', port: host.port, method: 'POST', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.write('{"text":"');
  });
}

/** The host still answers a plain call. */
async function stillAnswers(): Promise<void> {
  expect((await api.invoke('scenarios:list', {})).length).toBeGreaterThan(0);
}

describe('the browser host takes a file as large as its importer does, and no larger', () => {
  it('a 10 MiB HAR through the UI call: imported as a journey of its API requests, the secrets moved out; a preview stores nothing', async () => {
    const text = session(110, 100 * 1024);
    expect(Buffer.byteLength(JSON.stringify({ text }))).toBeGreaterThan(10 * 1024 * 1024);
    const before = stored();
    const answer = await api.invoke('requests:import-har', { text, name: 'session.har', correlate: 'all', keep: false });
    const scenario = JSON.parse(answer.text) as { phases: { requests: { name: string }[] }[] };
    expect(scenario.phases[0]!.requests.map((r) => r.name)).toEqual(['POST /api/login', 'GET /api/items', 'GET /api/items/{id}']);
    expect(answer.proposals.map((p) => p.from.name)).toEqual(['POST /api/login', 'GET /api/items']);
    expect(answer.notes.join('\n')).toMatch(/110 static asset/);
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(stored()).toEqual(before);
    expect(written()).toEqual([]);
  });

  it('the same HAR kept: its credentials kept as an upload is, one file; the secret only there', async () => {
    const before = stored();
    const answer = await api.invoke('requests:import-har', { text: session(110, 100 * 1024), name: 'session.har', correlate: 'all', keep: true });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(answer.files.map((f) => f.name)).toEqual(['credentials.csv']);
    expect(stored().data_blobs).toBe(before.data_blobs! + 1);
    expect(written()).toEqual([]);
  });

  it('a HAR one byte over 64 MiB, sent whole: one line naming the limit, nothing stored, and the host answers the next call', async () => {
    const text = har([]).replace('"entries":[]', `"entries":[],"x":"${'a'.repeat(MAX_HAR_BYTES)}"`);
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_HAR_BYTES);
    const before = stored();
    const line = await refusal(() => api.invoke('requests:import-har', { text, name: 'huge.har', correlate: 'all', keep: true }));
    expect(line).toBe(`"huge.har" is ${Buffer.byteLength(text)} bytes; a HAR may have at most 64 MiB`);
    expect(stored()).toEqual(before);
    expect(written()).toEqual([]);
    await stillAnswers();
  });

  it('a body past the room of the file it carries (a HAR call saying 200 MiB follow): refused before it is read, in one line naming the limit', async () => {
    const before = stored();
    const answer = await postDeclaring('/api/requests:import-har', 200 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ code: 'LS_ERR_BAD_REQUEST', message: "requests:import-har: a HAR may have at most 64 MiB; this request's body is over 129 MiB" });
    const plain = await postDeclaring('/api/scenarios:validate', 5 * 1024 * 1024);
    expect([plain.status, JSON.parse(plain.body)]).toEqual([413, { code: 'LS_ERR_BAD_REQUEST', message: "a call's body may have at most 4 MiB" }]);
    expect(stored()).toEqual(before);
    await stillAnswers();
  });

  it('a call that carries no file, sent 5 MiB: still refused at 4 MiB, the file calls do not lend it their room', async () => {
    const line = await refusal(() => api.invoke('scenarios:validate', { text: `{"name":"${'a'.repeat(5 * 1024 * 1024)}"}` }));
    expect(line).toContain("a call's body may have at most 4 MiB");
    await stillAnswers();
  });

  it("a bundle one character over 48 MiB from the Scenarios view's import: the engine's own line naming the limit, nothing stored", async () => {
    const text = `{"loadscopeBundle":1,"x":"${'a'.repeat(BUNDLE_MAX_CHARS)}"}`;
    const before = stored();
    const line = await refusal(() => api.invoke('library:import', { text, source: 'big.bundle.json' }));
    expect(line).toBe(`big.bundle.json: the bundle is ${text.length} characters; one may have at most ${BUNDLE_MAX_CHARS}`);
    expect(stored()).toEqual(before);
    await stillAnswers();
  });

  it("a 3 MiB data file uploaded from the editor: the engine's own line naming its 2 MiB, nothing stored", async () => {
    const before = stored();
    const base64 = Buffer.from(`a,b\n${'1,2\n'.repeat((3 * 1024 * 1024) / 4)}`).toString('base64');
    const line = await refusal(() => api.invoke('library:upload-data', { name: 'rows.csv', base64 }));
    expect(line).toContain(`${KEPT_FILE_MAX_BYTES / 1024 / 1024} MiB`);
    expect(line.split('\n')).toHaveLength(1);
    expect(stored()).toEqual(before);
  });
});

describe('hostile imports through the host: a bounded one-line answer, nothing stored', () => {
  it('a recording of 10,000 requests, kept: one line saying a journey holds 256 steps; no row, no file, no secret', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) =>
      entry('POST', `http://127.0.0.1:9/api/orders/${i}`, [{ name: 'Authorization', value: `Bearer ${SECRET}-${i}` }], JSON.stringify({ password: `${SECRET}-${i}` }), { mimeType: 'application/json', text: '{}' }),
    );
    const before = stored();
    const line = await refusal(() => api.invoke('requests:import-har', { text: har(entries), name: 'long.har', correlate: 'all', keep: true }));
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(/256 steps/);
    expect(line).not.toContain(SECRET);
    expect(stored()).toEqual(before);
    expect(written()).toEqual([]);
    await stillAnswers();
  });

  it('a 50 MB description from the UI: one line naming its 32 MiB, nothing stored', async () => {
    const text = `{"openapi":"3.0.3","x":"${'a'.repeat(50 * 1000 * 1000)}"}`;
    const before = stored();
    const line = await refusal(() => api.invoke('requests:import-description', { text, source: 'huge.json' }));
    expect(line).toBe(`"huge.json" is ${Buffer.byteLength(text)} bytes; an API description may have at most ${MAX_DESCRIPTION_BYTES / 1024 / 1024} MiB`);
    expect(stored()).toEqual(before);
    expect(written()).toEqual([]);
    await stillAnswers();
  });

  it('a description with cyclic references from the UI: imported with its bodies cut at a depth, said in a note; only its named data file stored; the scenario validates', async () => {
    const before = stored();
    const text = readFileSync(join(OAS, '3.0/json/circular-request-bodies.json'), 'utf8');
    const answer = await api.invoke('requests:import-description', { text, source: 'cyclic.json', baseUrl: 'http://127.0.0.1:4010' });
    expect(answer.notes.join('\n')).toMatch(/cut the values of \d+ operation\(s\) at 6 levels/);
    expect(Buffer.byteLength(answer.text)).toBeLessThan(1024 * 1024);
    expect(stored().data_blobs).toBe(before.data_blobs! + answer.files.length);
    expect(written()).toEqual([]);
    const checked = await api.invoke('scenarios:validate', { text: answer.text, files: answer.files.map((f) => ({ name: f.name, hash: f.hash })) });
    expect(checked.ok).toBe(true);
  });

  it('a collection with secrets in a header, its auth, a JSON body, a form body and a query: none in the answer; each a data column of the kept file, the login beside its password too', async () => {
    const collection = {
      info: { name: 'secrets', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      auth: { type: 'bearer', bearer: [{ key: 'token', value: SECRET, type: 'string' }] },
      item: [
        {
          name: 'login',
          request: {
            method: 'POST',
            url: 'http://127.0.0.1:4010/login',
            header: [{ key: 'X-Api-Key', value: `${SECRET}-key` }, { key: 'Content-Type', value: 'application/json' }],
            body: { mode: 'raw', raw: JSON.stringify({ user: 'ada', password: `${SECRET}-pw` }) },
          },
        },
        {
          name: 'token',
          request: {
            method: 'POST',
            url: `http://127.0.0.1:4010/oauth/token?api_key=${SECRET}-q&page=1`,
            body: { mode: 'urlencoded', urlencoded: [{ key: 'grant_type', value: 'client_credentials' }, { key: 'client_secret', value: `${SECRET}-cs` }] },
          },
        },
      ],
    };
    const answer = await api.invoke('requests:import-description', { text: JSON.stringify(collection), source: 'secrets.postman.json' });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    const scenario = JSON.parse(answer.text) as { phases: { requests: { path: string; body?: string }[] }[] };
    expect(scenario.phases[0]!.requests[1]!.path).toBe('/oauth/token?api_key={{data.query.api_key}}&page=1');
    expect(scenario.phases[0]!.requests.map((r) => r.body)).toEqual(['{"user":"{{data.body.user}}","password":"{{data.body.password}}"}', 'grant_type=client_credentials&client_secret={{data.body.client_secret}}']);
    expect(answer.files).toHaveLength(1);
    const row = JSON.parse(engine.store.library.keptFiles.content(answer.files[0]!.hash)?.toString('utf8') ?? '{}') as Record<string, string>;
    expect(row).toMatchObject({ 'auth.bearer': SECRET, 'header.X-Api-Key': `${SECRET}-key`, 'body.user': 'ada', 'body.password': `${SECRET}-pw`, 'body.client_secret': `${SECRET}-cs`, 'query.api_key': `${SECRET}-q` });
    expect(written()).toEqual([]);
  });
});
