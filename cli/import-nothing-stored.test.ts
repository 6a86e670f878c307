import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowCounts } from '../db/test-support/row-counts.js';
import { createEngine } from '../engine/engine.js';
import { rootPath } from '../engine/paths.js';
import { createScenario } from '../engine/scenario/test-support/factories.js';
import { runCli } from './test-support/cli-process.js';

// Issue 39's hostile imports at the command line, asked of the store too: with a real SQLite database
// in use (LOADSCOPE_DB, a library scenario in it), a recording of 10,000 requests, a 50 MB OpenAPI
// description and a 50 MB collection are each exit 2 and one line, with no file written and every
// table's rows as they were; a description with cyclic references is imported bounded; a collection
// with secrets in its headers, auth and bodies leaves none in the scenario or the output, only in the
// owner-only data file beside it. The browser host's side is cli/host/host-uploads.test.ts.

const SECRET = 'cli-S3CRET-value';
let dir = '';
let dbPath = '';
let before: Record<string, number> = {};
const savedDb = process.env.LOADSCOPE_DB;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-import-stored-'));
  dbPath = join(dir, 'store', 'runs.db');
  const engine = createEngine({ dbPath });
  await engine.handlers['library:save']({ text: JSON.stringify(createScenario({ name: 'kept' })) });
  await engine.close();
  before = rowCounts(dbPath);
  process.env.LOADSCOPE_DB = dbPath;
});
afterAll(() => {
  if (savedDb === undefined) delete process.env.LOADSCOPE_DB;
  else process.env.LOADSCOPE_DB = savedDb;
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: dir, deadlineMs: 120_000 });
/** The files in the test's folder, the database's folder left out. */
const files = () => readdirSync(dir).filter((f) => f !== 'store').sort();

/** A refusal: exit 2, one line matching `line`, nothing on stdout, no file written, no row stored. */
async function refused(args: string[], line: RegExp): Promise<void> {
  const had = files();
  const out = await cli(args);
  expect(out.status, out.stderr).toBe(2);
  expect(out.stdout).toBe('');
  expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(out.stderr.trim()).toMatch(line);
  expect(out.stderr).not.toContain(SECRET);
  expect(files()).toEqual(had);
  expect(rowCounts(dbPath)).toEqual(before);
}

describe('hostile imports through the CLI: one line, no file, no row', () => {
  it('a recording of 10,000 requests with a secret in each: one line saying a journey holds 256 steps; nothing written or stored', async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      request: {
        method: 'POST',
        url: `http://127.0.0.1:9/api/orders/${i}`,
        headers: [{ name: 'Authorization', value: `Bearer ${SECRET}-${i}` }],
        postData: { mimeType: 'application/json', text: JSON.stringify({ password: `${SECRET}-${i}` }) },
      },
      response: { status: 200, content: { mimeType: 'application/json', text: '{}' } },
    }));
    writeFileSync(join(dir, 'long.har'), JSON.stringify({ log: { version: '1.2', entries } }));
    await refused(['import-har', 'long.har', '--out', 'long.json'], /256 steps/);
  });

  it('a 50 MB OpenAPI description and a 50 MB collection: one line naming the 32 MiB bound; nothing written or stored', async () => {
    writeFileSync(join(dir, 'huge.yaml'), '');
    truncateSync(join(dir, 'huge.yaml'), 50 * 1000 * 1000);
    await refused(['import-openapi', 'huge.yaml', '--out', 'huge.json'], /^loadscope: "huge\.yaml" is 50000000 bytes; an API description may have at most 32 MiB/);
    await refused(['import-postman', 'huge.yaml', '--out', 'huge.json'], /^loadscope: "huge\.yaml" is 50000000 bytes; a Postman collection may have at most 32 MiB/);
  });

  it('a description with cyclic references: imported with its bodies cut at 6 levels and said; no row stored', async () => {
    const out = await cli(['import-openapi', rootPath('node_modules/@readme/oas-examples/3.0/json/circular-request-bodies.json'), '--out', 'cyclic.json', '--base-url', 'http://127.0.0.1:4010']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/note: cut the values of \d+ operation\(s\) at 6 levels/);
    expect(statSync(join(dir, 'cyclic.json')).size).toBeLessThan(1024 * 1024);
    expect(rowCounts(dbPath)).toEqual(before);
  });

  it('a collection with secrets in a header, its auth, a JSON body, a form body and a query: none in the scenario or the output; each in the 0600 data file', async () => {
    const collection = {
      info: { name: 'secrets', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      auth: { type: 'bearer', bearer: [{ key: 'token', value: SECRET, type: 'string' }] },
      item: [
        {
          name: 'login',
          request: {
            method: 'POST',
            url: 'http://127.0.0.1:4010/login',
            header: [{ key: 'X-Api-Key', value: `${SECRET}-key` }],
            body: { mode: 'raw', raw: JSON.stringify({ user: 'ada', password: `${SECRET}-pw` }), options: { raw: { language: 'json' } } },
          },
        },
        { name: 'token', request: { method: 'POST', url: `http://127.0.0.1:4010/token?api_key=${SECRET}-q`, body: { mode: 'urlencoded', urlencoded: [{ key: 'client_secret', value: `${SECRET}-cs` }] } } },
      ],
    };
    writeFileSync(join(dir, 'secrets.postman.json'), JSON.stringify(collection));
    const out = await cli(['import-postman', 'secrets.postman.json', '--out', 'secrets.json']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout + out.stderr).not.toContain(SECRET);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain(SECRET);
    const data = files().find((f) => f.endsWith('.data.jsonl'))!;
    expect(statSync(join(dir, data)).mode & 0o777).toBe(0o600);
    const row = JSON.parse(readFileSync(join(dir, data), 'utf8')) as Record<string, string>;
    expect(row).toMatchObject({ 'auth.bearer': SECRET, 'header.X-Api-Key': `${SECRET}-key`, 'body.password': `${SECRET}-pw`, 'body.client_secret': `${SECRET}-cs`, 'query.api_key': `${SECRET}-q` });
    expect((await cli(['validate', 'secrets.json'])).status).toBe(0);
    expect(rowCounts(dbPath)).toEqual(before);
  });
});
