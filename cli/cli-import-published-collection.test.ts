import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenApiMock, type OpenApiMock } from '../engine/import-requests/test-support/openapi-mock.js';
import { notInstalled, publishedCollections } from '../engine/import-requests/test-support/published-collections.js';
import { skipUnless } from '../engine/test-support/skip.js';
import { runCli } from './test-support/cli-process.js';
import type { RunJson } from './test-support/run-json.js';

// Issue 39's "Postman imports of real published documents validate and run against a mock server of
// no one's making driven by the same description", with a collection no one here wrote: those
// postman-to-openapi publishes on the npm registry (engine/import-requests/test-support/
// published-collections.ts), each beside the OpenAPI description of the same requests that package
// publishes. Through the real CLI: imported, validated, and run against openapi-backend driven by
// that description (a request it does not describe, or whose body breaks its schema, is refused 400;
// one without the bearer token its security asks for, 401), every request answered 2xx, 0 errors.
// Folders nested five deep keep their requests in order; a file upload is left out, said in a note;
// the collection's literal bearer token goes to the data file, never the scenario.

const published = publishedCollections();
let dir = '';
const mocks: OpenApiMock[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-published-collection-'));
});
afterAll(async () => {
  for (const m of mocks.splice(0)) await m.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: dir, deadlineMs: 60_000 });
const errorsOf = (e: Record<string, number>) => Object.values(e).reduce((n, x) => n + x, 0);

async function mockOf(name: string): Promise<OpenApiMock> {
  const mock = await startOpenApiMock(published!.description(name));
  mocks.push(mock);
  return mock;
}

/**
 * Imports the collection aimed at the mock, fills in the variables it leaves to the person (`fill`,
 * as its note asks), validates it and runs it: the phase as the run reports it.
 */
async function importAndRun(name: string, mock: OpenApiMock, fill: Record<string, string> = {}) {
  const out = await cli(['import-postman', published!.collection(name), '--out', `${name}.json`, '--base-url', mock.url]);
  expect(out.status, out.stderr).toBe(0);
  if (Object.keys(fill).length > 0) {
    const data = join(dir, (JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as { data: { file: string }[] }).data[0]!.file);
    writeFileSync(data, `${JSON.stringify({ ...(JSON.parse(readFileSync(data, 'utf8')) as object), ...fill })}\n`);
  }
  const valid = await cli(['validate', `${name}.json`]);
  expect(valid.status, valid.stderr).toBe(0);
  const from = mock.answered.length;
  const run = await cli(['run', `${name}.json`, '--json', '--db', join(dir, 'runs.db')]);
  expect(run.status, run.stderr).toBe(0);
  const phase = (JSON.parse(run.stdout) as RunJson).servers[0]!.phases[0]!;
  return { notes: out.stderr, phase, answered: mock.answered.slice(from).filter((a) => a.route !== null) };
}

describe('a Postman collection published on the registry, run against the mock of its own description', () => {
  it('FolderCollection (folders nested five deep): every request in order, each answered 2xx by the mock of Folders.yml, 0 errors; the file upload left out and said', skipUnless(published !== null, notInstalled), async () => {
    const mock = await mockOf('Folders');
    const { notes, phase, answered } = await importAndRun('FolderCollection', mock);
    expect(notes).toContain('file upload');
    expect(errorsOf(phase.errors)).toBe(0);
    expect(phase.endpoints.map((e) => e.name)).toEqual(['Get user roles', 'Create a user', 'Create a customer', 'Get posts settings', 'Request 4', 'Request 3', 'Request 2', 'Request 1', 'Create a info']);
    expect(answered.map((a) => a.route)).toEqual([
      'GET /users/admin/roles',
      'POST /users',
      'POST /customer',
      'GET /posts/admin/settings',
      'POST /req4',
      'POST /req3',
      'POST /req2',
      'POST /req1',
      'POST /info',
    ]);
    expect(answered.filter((a) => a.status >= 300)).toEqual([]);
  });

  it("AuthBearer (the collection's bearer auth): its token moved to the data file, sent on every request, each answered 2xx by the mock of AuthBearer.yml, which refuses a request without it", skipUnless(published !== null, notInstalled), async () => {
    const mock = await mockOf('AuthBearer');
    const { phase, answered } = await importAndRun('AuthBearer', mock);
    expect(readFileSync(join(dir, 'AuthBearer.json'), 'utf8')).not.toContain('YUIHUILOIJOJOJ');
    expect(errorsOf(phase.errors)).toBe(0);
    expect(answered.map((a) => [a.route, a.status])).toEqual([
      ['POST /users', 200],
      ['GET /users', 200],
    ]);
    const bare = await fetch(`${mock.url}/users`);
    expect(bare.status).toBe(401);
  });

  // The rest of the package's collections, each with the description it publishes of it and the
  // path variables the collection leaves undefined, filled in as the import's note asks. Left out:
  // PostmantoOpenAPI, whose two documents disagree (the collection sends its note as text/plain, the
  // description asks for JSON: the mock rightly answers 400), and DepthPathParams, one of whose paths
  // ends in a slash (/user/{user_id}/desc/), which openapi-backend drops from a request but not from
  // the description, so it cannot answer it.
  const PAIRS: [collection: string, description: string, fill: Record<string, string>][] = [
    ['GetMethods', 'GetMethods', {}],
    ['Headers', 'Headers', {}],
    ['PathParams', 'PathParams', { user_id: '7', 'customer-id': 'c-7' }],
    ['AuthBasic', 'AuthBasic', {}],
    ['DeleteOperation', 'DeleteOperation', {}],
    ['ParseStatusCode', 'ParseStatus', {}],
  ];
  for (const [collection, description, fill] of PAIRS) {
    it(`${collection}: every request it sends answered 2xx by the mock of ${description}.yml, 0 errors`, skipUnless(published !== null, notInstalled), async () => {
      const mock = await mockOf(description);
      const { phase, answered } = await importAndRun(collection, mock, fill);
      expect(errorsOf(phase.errors)).toBe(0);
      expect(answered.length).toBe(phase.endpoints.length);
      expect(answered.filter((a) => a.status >= 300)).toEqual([]);
    });
  }
});
