import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storedKept } from '../library/test-support/kept-files.js';
import { rootPath } from '../paths.js';
import { useTempEngine } from '../test-support/temp-engine.js';
import { MAX_DESCRIPTION_BYTES } from './limits.js';
import { startOpenApiMock, type OpenApiMock } from './test-support/openapi-mock.js';

// The UI's "Import API description" (requests:import-description, issue 39) through the engine's
// handlers, on a real SQLite file: the data file an import makes is kept as the editor's upload is
// (library:upload-data), named in the scenario by its plain name, so saving the scenario keeps it with
// the library version and a run by name reads it from the library, with no file-read consent and
// nothing written to the disk. Before, it was written under the data folder's imported/ and named by
// its absolute path: a run of the saved scenario needed consent to read a file outside any folder,
// and the file never went with the scenario. Hostile input: a description over the size bound, and
// one whose data file would pass the kept-file bound, each one line with nothing stored.

const OAS = rootPath('node_modules/@readme/oas-examples');
const COLLECTION = join(import.meta.dirname, 'fixtures', 'petstore.postman_collection.json');
const temp = useTempEngine('description-upload');
const mocks: OpenApiMock[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.close();
});

interface Doc {
  name: string;
  data: { name: string; file: string; format: string }[];
}

const importText = (text: string, source: string, baseUrl?: string) => temp.engine.handlers['requests:import-description']({ text, source, ...(baseUrl === undefined ? {} : { baseUrl }) });

/** The engine's folder holds the database and nothing an import wrote. */
const writtenBesideDb = (): string[] => readdirSync(temp.dir).filter((f) => !f.startsWith('runs.db'));

describe("the UI's import keeps its data file with the library scenario", () => {
  it('a collection and a description, told apart by their text: each data file comes back kept as an upload, named as the scenario names it, nothing written to the disk', async () => {
    const collection = await importText(readFileSync(COLLECTION, 'utf8'), 'pets.postman.json', 'http://127.0.0.1:4010');
    const openapi = await importText(readFileSync(join(OAS, '3.0/yaml/petstore.yaml'), 'utf8'), 'petstore.yaml', ' http://127.0.0.1:4010 ');
    for (const [result, name] of [[collection, 'postman-swagger-petstore-by-hand'], [openapi, 'openapi-swagger-petstore']] as const) {
      const doc = JSON.parse(result.text) as Doc;
      expect(doc.name).toBe(name);
      expect(result.files.map((f) => f.name)).toEqual([doc.data[0]!.file]);
      expect(result.files[0]).toMatchObject({ format: 'jsonl', rows: 1, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    }
    expect(storedKept(temp.dbPath)).toEqual({ blobs: 2, links: 0 });
    expect(writtenBesideDb()).toEqual([]);
  });

  it('imported and saved, its credentials filled in and saved again, run by name: each version keeps its data file, and the run reads it from the library with no file-read consent', async () => {
    const mock = await startOpenApiMock(join(OAS, '3.0/json/petstore.json'));
    mocks.push(mock);
    const h = temp.engine.handlers;
    const imported = await importText(readFileSync(join(OAS, '3.0/json/petstore.json'), 'utf8'), 'petstore.json', mock.url);
    const refs = imported.files.map(({ name, hash }) => ({ name, hash }));
    // saved as imported: the version keeps the import's own data file
    const first = await h['library:save']({ text: imported.text, files: refs });
    // the person fills in the credentials the import left empty, as the editor replaces a kept file: an upload of the same name
    const bundle = JSON.parse((await h['library:bundle']({ text: imported.text, files: refs })).text) as { files: { name: string; text: string }[] };
    const row = JSON.parse(bundle.files[0]!.text) as Record<string, string>;
    expect(row).toMatchObject({ 'auth.petstore_auth': '', 'auth.api_key': '' });
    const filled = `${JSON.stringify({ ...row, 'auth.petstore_auth': 'token-k7f3', 'auth.api_key': 'key-k7f3' })}\n`;
    const kept = await h['library:upload-data']({ name: imported.files[0]!.name, base64: Buffer.from(filled).toString('base64') });
    const saved = await h['library:save']({ id: first.id, text: imported.text, files: [{ name: kept.name, hash: kept.hash }] });
    const versions = await h['library:versions']({ id: saved.id });
    expect(versions.map((v) => v.files?.map((f) => [f.name, f.hash]))).toEqual([
      [['openapi-swagger-petstore.data.jsonl', imported.files[0]!.hash]],
      [['openapi-swagger-petstore.data.jsonl', kept.hash]],
    ]);

    // no allowFiles: nothing is read from the disk
    const { runId } = await h['runs:start']({ scenario: { name: saved.name }, quick: false, set: {} });
    await temp.engine.waitForRun(runId);
    const run = await h['runs:get']({ runId });
    expect(run.status, run.reason ?? '').toBe('completed');
    expect((await h['runs:scenario']({ runId })).files?.map((f) => f.name)).toEqual(['openapi-swagger-petstore.data.jsonl']);
    // the kept row's credentials and addPet's example body reached the mock, which took them
    expect(mock.answered.find((a) => a.operationId === 'updatePet')).toMatchObject({ status: 200 });
    expect(mock.answered.find((a) => a.operationId === 'addPet')).toMatchObject({ status: 200 });
    expect(writtenBesideDb()).toEqual([]);
  });

  it('a description over the size bound: refused in one line before it is parsed, nothing kept', async () => {
    const text = `{"openapi":"3.0.3","x":"${'a'.repeat(MAX_DESCRIPTION_BYTES)}"}`;
    await expect(importText(text, 'big.json')).rejects.toThrow(`"big.json" is ${Buffer.byteLength(text)} bytes; an API description may have at most 32 MiB`);
    expect(storedKept(temp.dbPath)).toEqual({ blobs: 0, links: 0 });
    expect(existsSync(join(temp.dir, 'imported'))).toBe(false);
  });

  it('examples that make a data file over the 2 MiB a kept file may hold: refused in one line naming it, nothing kept', async () => {
    const big = 'x'.repeat(200 * 1024);
    const paths = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`/blobs/${i}`, { post: { operationId: `put${i}`, requestBody: { content: { 'application/json': { schema: { type: 'object' }, example: { blob: big } } } }, responses: { 200: { description: 'ok' } } } }]),
    );
    const doc = { openapi: '3.0.3', info: { title: 'Blobs', version: '1' }, servers: [{ url: 'http://127.0.0.1:8080' }], paths };
    const error = await importText(JSON.stringify(doc), 'blobs.json').then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(error?.message).toMatch(/^openapi-blobs\.data\.jsonl is \d+ bytes; a data file kept with a library scenario may have at most 2 MiB$/);
    expect(storedKept(temp.dbPath)).toEqual({ blobs: 0, links: 0 });
  });
});
