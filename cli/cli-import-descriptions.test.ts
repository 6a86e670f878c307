import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { startOpenApiMock, type OpenApiMock } from '../engine/import-requests/test-support/openapi-mock.js';
import { runCli } from './test-support/cli-process.js';
import type { RunJson } from './test-support/run-json.js';

// Issue 39's "OpenAPI and Postman imports of real published documents validate and run against a mock
// server of no one's making driven by the same description": through the real CLI, the Petstore
// @readme/oas-examples ships (JSON and YAML) and a v2.1 collection written by hand against it run
// against openapi-backend (which refuses, 400, any request the description does not allow, and 401 one
// without the credential its security asks for) with 0 errors; invalid and 50 MB descriptions are one
// line, exit 2, and nothing written. Build first (npx tsc -p tsconfig.node.json).

const PETSTORE = rootPath('node_modules/@readme/oas-examples/3.0/json/petstore.json');
const PETSTORE_YAML = rootPath('node_modules/@readme/oas-examples/3.0/yaml/petstore.yaml');
const COLLECTION = rootPath('engine/import-requests/fixtures/petstore.postman_collection.json');
const DATA = 'openapi-swagger-petstore.data.jsonl';

let dir: string;
let mock: OpenApiMock;
let mockV2: OpenApiMock;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadscope-describe-'));
  mock = await startOpenApiMock(PETSTORE);
  // the collection's {{baseUrl}} is https://petstore.swagger.io/v2: its paths start /v2
  mockV2 = await startOpenApiMock(PETSTORE, { apiRoot: '/v2' });
});
afterAll(async () => {
  await mock?.close();
  await mockV2?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: dir, deadlineMs: 50_000 });
const errorsOf = (e: Record<string, number>) => Object.values(e).reduce((n, x) => n + x, 0);

async function runJson(file: string): Promise<RunJson> {
  const out = await cli(['run', file, '--json', '--db', join(dir, 'runs.db')]);
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as RunJson;
}

/** The data file with its credentials filled in, as the import's note asks. */
function fillCredentials(file: string, values: Record<string, string>): void {
  const row = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...row, ...values })}\n`);
}

/** What the mock answered each operation since `from` (its readiness probes, to no operation, left out). */
const answeredSince = (m: OpenApiMock, from: number) => m.answered.slice(from).filter((a) => a.operationId !== null);

describe('import-openapi and import-postman through the CLI', () => {
  it('the Petstore (JSON): imported beside its data file (owner-only), validated; without credentials the mock refuses its first step 401', async () => {
    const out = await cli(['import-openapi', PETSTORE, '--out', 'petstore.json', '--base-url', mock.url]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(`note: credentials are read from ${DATA}, never written in the scenario: auth.petstore_auth`);
    expect(out.stderr).toContain('note: left out 1 operation(s) it cannot send: file upload (1)');
    expect(statSync(join(dir, DATA)).mode & 0o777).toBe(0o600);
    const valid = await cli(['validate', 'petstore.json']);
    expect(valid.status, valid.stderr).toBe(0);

    const from = mock.answered.length;
    const run = await runJson('petstore.json');
    expect(errorsOf(run.servers[0]!.phases[0]!.errors)).toBeGreaterThan(0);
    expect(answeredSince(mock, from)[0]).toEqual({ operationId: 'updatePet', route: 'PUT /pet', status: 401, error: 'no credential' });
  });

  it('the Petstore (JSON), its credentials filled in: every operation answered by the mock of the same description, 0 errors', async () => {
    fillCredentials(join(dir, DATA), { 'auth.petstore_auth': 'a-token', 'auth.api_key': 'a-key' });
    const from = mock.answered.length;
    const phase = (await runJson('petstore.json')).servers[0]!.phases[0]!;
    expect(errorsOf(phase.errors)).toBe(0);
    expect(phase.endpoints).toHaveLength(19);
    for (const e of phase.endpoints) expect([e.name, e.count]).toEqual([e.name, 1]);
    const answered = answeredSince(mock, from);
    expect(answered.map((a) => a.operationId)).toEqual(phase.endpoints.map((e) => e.name));
    expect(answered.filter((a) => a.status >= 300)).toEqual([]);
  });

  it('the Petstore in YAML: its data file is not replaced without --force (nothing written); with it, imported, validated and run against the mock with 0 errors', async () => {
    const refused = await cli(['import-openapi', PETSTORE_YAML, '--out', 'petstore-yaml.json', '--base-url', mock.url]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe(`loadscope: ${DATA} already exists; pass --force to replace it (LS_ERR_BAD_REQUEST)`);
    expect(existsSync(join(dir, 'petstore-yaml.json'))).toBe(false);
    const out = await cli(['import-openapi', PETSTORE_YAML, '--out', 'petstore-yaml.json', '--base-url', mock.url, '--force']);
    expect(out.status, out.stderr).toBe(0);
    fillCredentials(join(dir, DATA), { 'auth.petstore_auth': 'a-token', 'auth.api_key': 'a-key' });
    const phase = (await runJson('petstore-yaml.json')).servers[0]!.phases[0]!;
    expect(errorsOf(phase.errors)).toBe(0);
    expect(phase.endpoints).toHaveLength(19);
  });

  it('a v2.1 collection (written by hand against the Petstore): imported, validated and run against the mock with 0 errors; its secrets only in the data file', async () => {
    const out = await cli(['import-postman', COLLECTION, '--out', 'collection.json', '--base-url', mockV2.url]);
    expect(out.status, out.stderr).toBe(0);
    const scenario = readFileSync(join(dir, 'collection.json'), 'utf8');
    const data = readFileSync(join(dir, 'postman-swagger-petstore-by-hand.data.jsonl'), 'utf8');
    for (const secret of ['s3cret-access-token', 's3cret-api-key', 'literal-session-secret']) {
      expect(scenario).not.toContain(secret);
      expect(data).toContain(secret);
    }
    expect((await cli(['validate', 'collection.json'])).status).toBe(0);
    const from = mockV2.answered.length;
    const phase = (await runJson('collection.json')).servers[0]!.phases[0]!;
    expect(errorsOf(phase.errors)).toBe(0);
    expect(phase.endpoints.map((e) => e.name)).toEqual(['Find pets by status', 'Add a pet', 'Get a pet', 'Update a pet with a form', 'Inventory', 'Place an order', 'Get an order', 'Log in']);
    expect(answeredSince(mockV2, from).filter((a) => a.status >= 300)).toEqual([]);
  });

  it('a description with cyclic references (circular-request-bodies.json): imported, its bodies cut at a depth, and valid', async () => {
    const file = rootPath('node_modules/@readme/oas-examples/3.0/json/circular-request-bodies.json');
    const out = await cli(['import-openapi', file, '--out', 'cyclic.json', '--base-url', mock.url]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toContain('note: cut the values of 3 operation(s) at 6 levels');
    expect((await cli(['validate', 'cyclic.json'])).status).toBe(0);
  });

  it('an invalid description, a 50 MB one, a collection that is not v2.1: exit 2, one line each, nothing written; no --out is refused', async () => {
    const doc = JSON.parse(readFileSync(PETSTORE, 'utf8')) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    doc.paths['/pet']!.put!.parameters = [{ name: 'x', in: 'nowhere' }];
    writeFileSync(join(dir, 'invalid.json'), JSON.stringify(doc));
    writeFileSync(join(dir, 'huge.yaml'), '');
    truncateSync(join(dir, 'huge.yaml'), 50 * 1024 * 1024);
    writeFileSync(join(dir, 'v1.json'), JSON.stringify({ info: { name: 'old' }, requests: [] }));
    const cases: [string[], RegExp][] = [
      [['import-openapi', 'invalid.json', '--out', 'bad.json'], /^loadscope: "invalid\.json" is not a valid OpenAPI description: paths\["\/pet"\]\.put\.parameters\[0\]/],
      [['import-openapi', 'huge.yaml', '--out', 'bad.json'], /^loadscope: "huge\.yaml" is 52428800 bytes; an API description may have at most 32 MiB \(LS_ERR_BAD_REQUEST\)$/],
      [['import-postman', 'v1.json', '--out', 'bad.json'], /^loadscope: "v1\.json" is not a Postman collection v2\.1: info\.schema is ""/],
    ];
    for (const [args, line] of cases) {
      const out = await cli(args);
      expect(out.status, args.join(' ')).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
      expect(out.stderr.trim()).toMatch(line);
    }
    expect(existsSync(join(dir, 'bad.json'))).toBe(false);
    // the data file goes beside --out: without it, commander's own refusal
    expect((await cli(['import-openapi', PETSTORE])).stderr).toContain("required option '--out <file>' not specified");
  });
});
