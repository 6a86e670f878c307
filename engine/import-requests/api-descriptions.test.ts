import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_LIMITS } from '../scenario/data-files.js';
import { validateScenario } from '../scenario/validate.js';
import { rootPath } from '../paths.js';
import { MAX_DESCRIPTION_BYTES, MAX_EXAMPLE_DEPTH } from './limits.js';
import { importOpenApiFile, openApiToScenario } from './openapi.js';
import { importPostmanFile, postmanToScenario } from './postman.js';

// OpenAPI descriptions and Postman collections in (issue 39), in the engine: published descriptions
// (@readme/oas-examples) become scenarios that validate, with a request per operation, examples and
// credentials in the data file and never in the scenario; hostile descriptions (invalid, cyclic,
// 50 MB, external $refs to a file or a URL, YAML alias bombs, JSON nested without end, 10,000
// operations, more values than a data file holds) get a bounded one-line answer.

const OAS = rootPath('node_modules/@readme/oas-examples');
const COLLECTION = join(import.meta.dirname, 'fixtures', 'petstore.postman_collection.json');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-descriptions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Template {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface Out {
  name: string;
  description: string;
  servers: { url: string }[];
  data?: { name: string; file: string; format: string }[];
  phases: { executor: string; count: number; flow?: boolean; data?: string; requests: Template[] }[];
}

async function imported(run: () => Promise<{ text: string; notes: string[]; files?: { name: string; text: string }[] }> | { text: string; notes: string[]; files?: { name: string; text: string }[] }) {
  const result = await run();
  const scenario = JSON.parse(result.text) as Out;
  expect(validateScenario(scenario).ok).toBe(true);
  const row = result.files?.[0] === undefined ? {} : (JSON.parse(result.files[0].text) as Record<string, unknown>);
  return { ...result, scenario, requests: scenario.phases[0]!.requests, row };
}

/** The one line a refused import gives. */
async function refusal(run: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await run();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    expect(message.split('\n')).toHaveLength(1);
    expect(message.length).toBeLessThan(400);
    return message;
  }
  throw new Error('expected the import to be refused');
}

const write = (name: string, value: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

const minimal = (paths: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Tiny', version: '1' },
  servers: [{ url: 'http://127.0.0.1:8080' }],
  paths,
  ...more,
});

describe('import-openapi: published descriptions', () => {
  it('the Petstore (JSON): a request per operation in order, named by operationId; examples as data columns, values made from a type written in and listed; the scenario validates', async () => {
    const { scenario, requests, row, notes, files } = await imported(() => importOpenApiFile(join(OAS, '3.0/json/petstore.json'), { baseUrl: 'http://127.0.0.1:4010' }));
    expect(scenario.servers).toEqual([{ architecture: 'external', label: '127.0.0.1:4010', url: 'http://127.0.0.1:4010' }]);
    expect(requests.map((r) => r.name)).toEqual([
      'updatePet', 'addPet', 'findPetsByStatus', 'findPetsByTags', 'getPetById', 'updatePetWithForm', 'deletePet', 'getInventory', 'placeOrder',
      'getOrderById', 'deleteOrder', 'createUser', 'createUsersWithArrayInput', 'createUsersWithListInput', 'loginUser', 'logoutUser', 'getUserByName', 'updateUser', 'deleteUser',
    ]);
    expect(scenario.phases[0]).toMatchObject({ executor: 'closed', count: 19, flow: true, data: 'examples' });
    expect(scenario.data).toEqual([{ name: 'examples', file: 'openapi-swagger-petstore.data.jsonl', format: 'jsonl' }]);
    expect(files?.map((f) => f.name)).toEqual(['openapi-swagger-petstore.data.jsonl']);

    const addPet = requests.find((r) => r.name === 'addPet')!;
    // Pet's name and photoUrls have examples: data columns, the string inside its quotes; id is readOnly: not sent
    expect(addPet.body).toContain('"name":"{{data.addPet.name}}"');
    expect(addPet.body).toContain('"photoUrls":["{{data.addPet.photoUrls.0}}"]');
    expect(addPet.body).not.toContain('"id":25');
    expect(row).toMatchObject({ 'addPet.name': 'doggie', 'addPet.photoUrls.0': 'https://example.com/photo.png', 'findPetsByStatus.status.0': 'available' });
    // a path parameter without an example: a literal made from its type (integer: 1; orderId's minimum is 1)
    expect(requests.find((r) => r.name === 'getPetById')!.path).toBe('/pet/1');
    expect(requests.find((r) => r.name === 'findPetsByStatus')!.path).toBe('/pet/findByStatus?status={{data.findPetsByStatus.status.0}}');
    // a default is an example too: a boolean outside quotes
    expect(requests.find((r) => r.name === 'placeOrder')!.body).toContain('"complete":{{data.placeOrder.complete}}');
    expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(/^made \d+ value\(s\) from the schema's type, having no example, written in the requests: updatePet category\.id \(integer\)/), 'left out 1 operation(s) it cannot send: file upload (1)']));
  });

  it("the Petstore's security: each credential an empty data column named in a note, sent as the scheme says; no credential in the scenario", async () => {
    const { requests, row, notes, text } = await imported(() => importOpenApiFile(join(OAS, '3.0/json/petstore.json'), { baseUrl: 'http://127.0.0.1:4010' }));
    expect(requests.find((r) => r.name === 'addPet')!.headers).toMatchObject({ Authorization: 'Bearer {{data.auth.petstore_auth}}' });
    expect(requests.find((r) => r.name === 'getPetById')!.headers).toMatchObject({ api_key: '{{data.auth.api_key}}' });
    expect(requests.find((r) => r.name === 'placeOrder')!.headers).not.toHaveProperty('Authorization');
    expect(row).toMatchObject({ 'auth.petstore_auth': '', 'auth.api_key': '' });
    expect(notes).toContain(
      'credentials are read from openapi-swagger-petstore.data.jsonl, never written in the scenario: auth.petstore_auth (an OAuth 2 access token, sent as Authorization: Bearer), auth.api_key (an API key, sent in the header api_key)',
    );
    expect(text).not.toMatch(/"Authorization": "Bearer [^{]/);
  });

  it('the Petstore in YAML and in OpenAPI 3.1: the same operations', async () => {
    const json = await imported(() => importOpenApiFile(join(OAS, '3.0/json/petstore.json'), { baseUrl: 'http://127.0.0.1:4010' }));
    const yaml = await imported(() => importOpenApiFile(join(OAS, '3.0/yaml/petstore.yaml'), { baseUrl: 'http://127.0.0.1:4010' }));
    const v31 = await imported(() => importOpenApiFile(join(OAS, '3.1/json/petstore.json'), { baseUrl: 'http://127.0.0.1:4010' }));
    expect(yaml.requests).toEqual(json.requests);
    expect(v31.requests.map((r) => [r.name, r.method])).toEqual(json.requests.map((r) => [r.name, r.method]));
  });

  it("the description's own server: its path prefixes every operation; a server that is not this machine is noted", async () => {
    const { scenario, requests, notes } = await imported(() => importOpenApiFile(join(OAS, '3.0/json/petstore.json')));
    expect(scenario.servers[0]!.url).toBe('http://petstore.swagger.io');
    expect(requests[0]!.path).toBe('/v2/pet');
    expect(notes).toContain('petstore.swagger.io is not this machine: running it needs --allow-remote (or --base-url to send to your own copy)');
  });

  it('security schemes of every kind (security.json): API keys in the header, query and cookie, basic, bearer; one it cannot send (digest) named and left out', async () => {
    const { requests, notes } = await imported(() => importOpenApiFile(join(OAS, '3.0/json/security.json'), { baseUrl: 'http://127.0.0.1:4010' }));
    const sent = requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.headers ?? {})}`).join('\n');
    expect(sent).toContain('GET /anything/apiKey?apiKey={{data.auth.apiKey_query}}');
    expect(sent).toContain('"X-API-KEY":"{{data.auth.apiKey_header}}"');
    expect(sent).toContain('"Cookie":"api_key={{data.auth.apiKey_cookie}}"');
    expect(sent).toContain('"Authorization":"Basic {{data.auth.basic}}"');
    expect(sent).toContain('"Authorization":"Bearer {{data.auth.bearer}}"');
    expect(notes.join('\n')).not.toContain('left out security schemes');
    const digest = minimal(
      { '/a': { get: { security: [{ d: [] }], responses: { 200: { description: 'ok' } } } } },
      { components: { securitySchemes: { d: { type: 'http', scheme: 'digest' } } } },
    );
    const other = await imported(() => openApiToScenario(JSON.stringify(digest), 'digest.json'));
    expect(other.requests[0]!.headers ?? {}).not.toHaveProperty('Authorization');
    expect(other.notes).toContain('left out security schemes it cannot send: d (HTTP digest)');
  });
});

describe('import-openapi: hostile descriptions', () => {
  it('cyclic references (circular.json, circular-request-bodies.json): imported, each body cut at a depth with a note, and valid', async () => {
    const cyclic = await imported(() => importOpenApiFile(join(OAS, '3.0/json/circular.json'), { baseUrl: 'http://127.0.0.1:4010' }));
    expect(cyclic.requests.map((r) => r.name)).toEqual(['GET /anything']);
    const bodies = await imported(() => importOpenApiFile(join(OAS, '3.0/json/circular-request-bodies.json'), { baseUrl: 'http://127.0.0.1:4010' }));
    expect(bodies.notes).toContain(`cut the values of 3 operation(s) at ${MAX_EXAMPLE_DEPTH} levels or 500 values (a schema that refers to itself, or a wide one): directCircular, indirectCircular, multipleCircular`);
    const tree = JSON.parse(bodies.requests.find((r) => r.name === 'directCircular')!.body!) as Record<string, unknown>;
    let depth = 0;
    for (let node: unknown = tree; typeof node === 'object' && node !== null && 'parent' in node; node = (node as { parent: unknown }).parent) depth++;
    // a handful of levels, not the hundreds the 500-value budget alone would allow
    expect(depth).toBeGreaterThan(0);
    expect(depth).toBeLessThanOrEqual(8);
  });

  it("an invalid description: refused in one line, the parser's first error at its JSON path", async () => {
    const doc = JSON.parse(readFileSync(join(OAS, '3.0/json/petstore.json'), 'utf8')) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    doc.paths['/pet']!.post!.responses = 7;
    const line = await refusal(() => importOpenApiFile(write('invalid.json', doc)));
    expect(line).toBe('"invalid.json" is not a valid OpenAPI description: paths["/pet"].post.responses: must be object');
  });

  it('a $ref to a missing place, Swagger 2.0, no openapi field, not JSON: one line each', async () => {
    expect(await refusal(() => openApiToScenario(JSON.stringify(minimal({ '/a': { get: { responses: { 200: { $ref: '#/nope' } } } } })), 'x.json'))).toMatch(/^"x\.json" is not a valid OpenAPI description: Missing \$ref pointer "#\/nope"/);
    expect(await refusal(() => importOpenApiFile(join(OAS, '2.0/json/petstore.json')))).toMatch(/^"petstore\.json" is Swagger 2\.0; OpenAPI 3\.0 and 3\.1 descriptions are read/);
    expect(await refusal(() => openApiToScenario('{"info": {}}', 'x.json'))).toBe('"x.json" is not an OpenAPI 3 description: it has no openapi field');
    expect(await refusal(() => openApiToScenario('{"openapi": ', 'x.json'))).toMatch(/^"x\.json" is not JSON/);
    expect(await refusal(() => openApiToScenario('openapi: [3.0\n  - : :', 'x.yaml'))).toMatch(/^"x\.yaml" is not YAML \(\w+ at line \d+, column \d+\)$/);
  });

  it('a 50 MB description: refused before it is read, in one line', async () => {
    const file = join(dir, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, 50 * 1024 * 1024);
    expect(await refusal(() => importOpenApiFile(file))).toBe(`"${file}" is ${50 * 1024 * 1024} bytes; an API description may have at most ${MAX_DESCRIPTION_BYTES / 1024 / 1024} MiB`);
    expect(await refusal(() => importPostmanFile(file))).toBe(`"${file}" is ${50 * 1024 * 1024} bytes; a Postman collection may have at most ${MAX_DESCRIPTION_BYTES / 1024 / 1024} MiB`);
  });

  it('external $refs (a secret file on this machine, a URL on 127.0.0.1): never read nor fetched', async () => {
    const secret = write('secret.json', { type: 'object', properties: { key: { type: 'string', example: 'TOP-SECRET-VALUE' } } });
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('{"type":"object","properties":{"x":{"example":"FETCHED"}}}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`;
    try {
      const body = (ref: string) => ({ requestBody: { content: { 'application/json': { schema: { $ref: ref } } } }, responses: { 200: { description: 'ok' } } });
      const doc = minimal({ '/file': { post: body(secret) }, '/url': { post: body(url) } });
      const { text, files, notes } = await imported(() => importOpenApiFile(write('external.json', doc)));
      expect(hits).toBe(0);
      for (const said of [text, JSON.stringify(files), notes.join('\n')]) {
        expect(said).not.toContain('TOP-SECRET-VALUE');
        expect(said).not.toContain('FETCHED');
      }
    } finally {
      server.close();
    }
  });

  it('YAML aliases that would expand a billion times: refused in one line', async () => {
    const lines = ['openapi: 3.0.3', 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    expect(await refusal(() => openApiToScenario(lines.join('\n'), 'laughs.yaml'))).toMatch(/^"laughs\.yaml" is not YAML|^"laughs\.yaml" cannot be read as YAML/);
  });

  it('JSON nested 100,000 deep: one line, no stack overflow', async () => {
    expect(await refusal(() => openApiToScenario(`{"openapi":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'deep.json'))).toBe('"deep.json" is nested more than 256 levels deep');
  });

  it('no server URL: refused asking for --base-url; --base-url with a path prefixes every operation', async () => {
    const doc = minimal({ '/items': { get: { responses: { 200: { description: 'ok' } } } } }, { servers: [{ url: '/api' }] });
    expect(await refusal(() => openApiToScenario(JSON.stringify(doc), 'relative.json'))).toBe('"relative.json" names no absolute server URL (servers[0].url): give --base-url, e.g. http://127.0.0.1:8080');
    const { scenario, requests } = await imported(() => openApiToScenario(JSON.stringify(doc), 'relative.json', { baseUrl: 'http://127.0.0.1:9000/api/' }));
    expect(scenario.servers[0]!.url).toBe('http://127.0.0.1:9000');
    expect(requests[0]!.path).toBe('/api/items');
    expect(await refusal(() => openApiToScenario(JSON.stringify(doc), 'relative.json', { baseUrl: 'ftp://127.0.0.1/' }))).toBe('--base-url "ftp://127.0.0.1/" is not an http(s) URL without user:password@');
  });

  it('10,000 operations: at most a phase of requests, the rest counted in a note', async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) paths[`/items/${i}`] = { get: { operationId: `get${i}`, responses: { 200: { description: 'ok' } } } };
    const { requests, notes } = await imported(() => openApiToScenario(JSON.stringify(minimal(paths)), 'wide.json'));
    expect(requests).toHaveLength(256);
    expect(notes).toContain('left out 9744 more operation(s): a phase holds at most 256 requests and a scenario 1 MiB of text');
  });

  it('text that looks like a placeholder ({{uuid}} in an enum, a path, a key): sent literally', async () => {
    const doc = minimal({
      '/a{{b}}/{id}': {
        post: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', enum: ['{{uuid}}'] } }],
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { '{{k}}': { type: 'string', enum: ['{{now}}'] } } } } } },
          responses: { 200: { description: 'ok' } },
        },
      },
    });
    const { requests } = await imported(() => openApiToScenario(JSON.stringify(doc), 'braces.json'));
    expect(requests[0]!.path).toBe('/a%7B%7Bb%7D%7D/%7B%7Buuid%7D%7D');
    expect(requests[0]!.body).toBe('{"\\{{k}}":"\\{{now}}"}');
  });

  it('an operationId and a title with line breaks and escapes: names and notes stay one line each', async () => {
    const doc = minimal({ '/a': { get: { operationId: 'get\nX-Injected: 1\u001b[2J', responses: { 200: { description: 'ok' } } } } }, { info: { title: 'T\r\nitle', version: '1' } });
    const { scenario, requests, notes } = await imported(() => openApiToScenario(JSON.stringify(doc), 'lines.json'));
    expect(requests[0]!.name).toBe('get X-Injected: 1 [2J');
    expect(scenario.name).toBe('openapi-t-itle');
    for (const line of [scenario.description, ...notes]) expect(line).not.toMatch(/[\r\n\u001b]/);
  });

  it('more values than a data file holds: the rest of the examples written in, a credential left out, each said', async () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < DATA_LIMITS.columns + 10; i++) properties[`f${i}`] = { type: 'string', example: `v${i}` };
    const ok = { 200: { description: 'ok' } };
    const doc = minimal(
      { '/wide': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } }, responses: ok } }, '/secure': { get: { security: [{ key: [] }], responses: ok } } },
      { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } } },
    );
    const { requests, row, notes } = await imported(() => openApiToScenario(JSON.stringify(doc), 'wide.json'));
    expect(Object.keys(row)).toHaveLength(DATA_LIMITS.columns);
    expect(requests[0]!.body).toContain(`"f${DATA_LIMITS.columns + 9}":"v${DATA_LIMITS.columns + 9}"`);
    expect(requests[1]!.headers ?? {}).not.toHaveProperty('X-Key');
    expect(notes).toEqual(expect.arrayContaining(['10 example value(s) are written in the requests: the data file holds at most 256 columns', 'left out 1 credential(s): the data file holds at most 256 columns, and a credential is never written in the scenario']));
  });
});

describe('import-postman', () => {
  it('a collection (written by hand against the Petstore): requests in order, auth inherited from folders and the collection, variables as data columns; no secret in the scenario', async () => {
    const { scenario, requests, row, notes, text } = await imported(() => importPostmanFile(COLLECTION, { baseUrl: 'http://127.0.0.1:4010' }));
    expect(scenario.servers[0]!.url).toBe('http://127.0.0.1:4010');
    expect(requests.map((r) => `${r.name}: ${r.method} ${r.path}`)).toEqual([
      'Find pets by status: GET /v2/pet/findByStatus?status=available',
      'Add a pet: POST /v2/pet',
      'Get a pet: GET /v2/pet/{{data.petId}}',
      'Update a pet with a form: POST /v2/pet/{{data.petId}}',
      'Inventory: GET /v2/store/inventory',
      'Place an order: POST /v2/store/order',
      'Get an order: GET /v2/store/order/3',
      'Log in: GET /v2/user/login?username={{data.user}}&password={{data.password}}',
    ]);
    const byName = (name: string) => requests.find((r) => r.name === name)!;
    expect(byName('Find pets by status').headers).toMatchObject({ Authorization: 'Bearer {{data.auth.bearer}}' });
    expect(byName('Inventory').headers).toEqual({ api_key: '{{data.auth.api_key}}' });
    expect(byName('Place an order').headers).toEqual({ 'Content-Type': 'application/json' });
    expect(byName('Place an order').body).toBe('{"petId": {{data.petId}}, "quantity": 1, "status": "placed", "complete": false}');
    // $randomUUID has a twin here
    expect(byName('Add a pet').body).toContain('https://example.com/{{uuid}}.png');
    expect(row).toEqual({ 'auth.bearer': 's3cret-access-token', petName: 'doggie', 'auth.api_key': 's3cret-api-key', petId: '7', 'header.X-Session-Token': 'literal-session-secret', user: '', password: '' });
    for (const secret of ['s3cret-access-token', 's3cret-api-key', 'literal-session-secret']) expect(text).not.toContain(secret);
    expect(notes).toEqual(
      expect.arrayContaining([
        'left out 1 request(s) it cannot send: file upload (1)',
        "fill in 2 variable(s) the collection does not define, each a column of the data file: user, password",
        '1 script(s) (pre-request, test) are not run: values they would set are not set',
      ]),
    );
  });

  it('not a v2.1 collection, an item the SDK cannot read, --base-url with a path: one line each', async () => {
    expect(await refusal(() => postmanToScenario('{"info": {"schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "item": []}', 'old.json'))).toBe(
      '"old.json" is not a Postman collection v2.1: info.schema is "https://schema.getpostman.com/json/collection/v1.0.0/collect..." (Postman: Export, Collection v2.1)',
    );
    expect(await refusal(() => postmanToScenario('openapi: 3.0.0', 'x.yaml'))).toMatch(/^"x\.yaml" is not JSON/);
    const v21 = (item: unknown) => JSON.stringify({ info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item });
    expect(await refusal(() => postmanToScenario(v21([7, null, { name: 'no request' }]), 'odd.json'))).toMatch(/^"odd\.json" (has no request|cannot be read as a Postman collection)/);
    expect(await refusal(() => importPostmanFile(COLLECTION, { baseUrl: 'http://127.0.0.1:4010/v2' }))).toBe('--base-url "http://127.0.0.1:4010/v2" has a path; it is scheme, host and port only (the requests keep their own paths)');
  });

  it('a variable that refers to itself, one with a line break in a header: resolved to a bound, never a split header', async () => {
    const doc = {
      info: { name: 'loops', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'host', value: '127.0.0.1:{{port}}' }, { key: 'port', value: '8080' }, { key: 'me', value: '{{me}}' }, { key: 'crlf', value: 'a\r\nX-Injected: 1' }],
      item: [{ name: 'get', request: { method: 'GET', header: [{ key: 'X-Me', value: '{{me}}' }, { key: 'X-Line', value: 'b\r\nX-Other: 2' }, { key: 'X-Crlf', value: '{{crlf}}' }], url: 'http://{{host}}/a' } }],
    };
    const { scenario, requests, notes } = await imported(() => postmanToScenario(JSON.stringify(doc), 'loops.json'));
    expect(scenario.servers[0]!.url).toBe('http://127.0.0.1:8080');
    expect(requests[0]!.headers).toEqual({ 'X-Me': '{{data.me}}', 'X-Line': 'b  X-Other: 2', 'X-Crlf': '{{data.crlf}}' });
    expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(/^fill in 1 variable\(s\) the collection does not define, each a column of the data file: me$/)]));
  });
});
