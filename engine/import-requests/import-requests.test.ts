import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../contract/variables.js';
import { validateScenario } from '../scenario/validate.js';
import { addCurlToScenario } from './add-curl.js';
import { curlToScenario, parseCurl } from './curl.js';
import { harToScenario, importHarFile, parseHar } from './har.js';
import { PASSES } from './journey.js';
import { MAX_HAR_BYTES } from './limits.js';

// Bringing requests in (issues 28, 39), in the engine: what a HAR or a curl command keeps, moves and
// leaves out as a journey, hostile input (quoting, line breaks, braces, huge files, more requests than
// a journey holds), and that every result validates.

const FIXTURE = join(import.meta.dirname, 'fixtures', 'shop.har');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-import-requests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Out {
  name: string;
  description: string;
  servers: { architecture: string; label: string; url: string }[];
  data?: { name: string; file: string }[];
  phases: { executor: string; users: number; count: number; flow?: boolean; data?: string; requests: { name: string; method: string; path: string; headers?: Record<string, string>; body?: string; weight?: number }[] }[];
}
const harText = (port = 8080) => readFileSync(FIXTURE, 'utf8').replaceAll('__PORT__', String(port));
const fromHar = (opts = {}, text = harText()) => {
  const result = harToScenario(parseHar(text, 'shop.har'), 'shop.har', opts);
  expect(validateScenario(JSON.parse(result.text)).ok).toBe(true);
  return { ...result, scenario: JSON.parse(result.text) as Out };
};
/** A path, header or body as the driver will send it: the template's fixed text. */
const sent = (text: string): string => {
  const parsed = parseTemplate(text);
  if (!parsed.ok || parsed.parts.some((p) => typeof p !== 'string')) throw new Error(`not fixed text: ${text}`);
  return parsed.parts.join('');
};

describe('import-har', () => {
  it("a browser's HAR: the main host's requests in recorded order as one journey, steps named by endpoint, what it left out said", () => {
    const { scenario, notes } = fromHar();
    expect(scenario.servers).toEqual([{ architecture: 'external', label: '127.0.0.1:8080', url: 'http://127.0.0.1:8080' }]);
    const phase = scenario.phases[0]!;
    expect(phase).toMatchObject({ executor: 'closed', users: 1, flow: true, count: 4 * PASSES });
    // every request a step, in order, the same call twice twice (no weights)
    expect(phase.requests.map((r) => r.name)).toEqual(['GET /fib', 'POST /api/login', 'POST /api/echo', 'GET /fib #2']);
    expect(phase.requests.every((r) => r.weight === undefined)).toBe(true);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^left out 2 static asset request\(s\)/),
        expect.stringMatching(/^left out 1 request\(s\) to hosts other than 127\.0\.0\.1:8080/),
        expect.stringMatching(/^left out 1 request\(s\) that are not http\(s\)/),
        expect.stringMatching(/^left out 1 "OPTIONS" request\(s\)/),
      ]),
    );
    for (const note of notes) expect(scenario.description).toContain(`${note.charAt(0).toUpperCase()}${note.slice(1)}.`);
  });

  it('framing and pseudo headers: left out; secrets: moved to the credentials file, never inline nor dropped', () => {
    const { scenario, csv, credentials, notes } = fromHar({ credentialsFile: 'shop.credentials.csv' });
    const [fib, login, echo] = scenario.phases[0]!.requests;
    expect(fib!.headers).toEqual({ Accept: 'text/html', Cookie: 'session={{data.cookie_session}}' });
    expect(login!.headers).toEqual({ 'Content-Type': 'application/json', 'X-CSRF-Token': '{{data.x_csrf_token}}' });
    expect(login!.body).toBe('{"user":"{{data.user}}","password":"{{data.password}}"}');
    expect(echo!.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer {{data.token}}' });
    expect(scenario.data).toEqual([{ name: 'credentials', file: 'shop.credentials.csv' }]);
    expect(scenario.phases[0]!.data).toBe('credentials');
    expect(credentials).toEqual({ file: 'shop.credentials.csv', columns: ['cookie_session', 'x_csrf_token', 'user', 'password', 'token'] });
    expect(csv).toBe('cookie_session,x_csrf_token,user,password,token\nabc,t0k,ada,secret,abc\n');
    expect(notes).toContain('moved 5 credential(s) (cookie_session, x_csrf_token, user, password, token) out of the scenario to shop.credentials.csv, read as {{data.<column>}}: keep that file beside the scenario, out of what you share');
  });

  it('keeps assets and other hosts when asked, and --host picks the host', () => {
    const all = fromHar({ includeAssets: true, allHosts: true }).scenario.phases[0]!.requests.map((r) => r.name);
    expect(all).toEqual(['GET /fib', 'GET /site.css', 'GET /logo.png', 'POST /api/login', 'POST /api/echo', 'GET /fib #2', 'GET /collect']);
    const other = fromHar({ host: 'analytics.example.com' });
    expect(other.scenario.servers[0]!.url).toBe('https://analytics.example.com');
    expect(other.notes).toContain('analytics.example.com is not this machine: running it needs --allow-remote');
    expect(() => fromHar({ host: 'nowhere.test' })).toThrow(/has no request to "nowhere\.test"; its hosts: 127\.0\.0\.1:8080, analytics\.example\.com/);
  });

  it('takes bodies and paths literally: {{ in a captured body is sent as it was', () => {
    const echo = fromHar().scenario.phases[0]!.requests[2]!;
    expect(sent(echo.body!)).toBe('{"say":"{{not a placeholder}}"}');
  });

  it('hostile strings: line breaks in a URL or header cannot reach a name or split a request', () => {
    const har = { log: { entries: [
      { request: { method: 'get', url: 'http://127.0.0.1:9/a\nb?q={{x}}', headers: [{ name: 'X-Ok', value: 'fine' }, { name: 'X-Evil', value: 'a\r\nHost: elsewhere' }, { name: 'Bad Name', value: 'x' }] } },
      { request: { method: 'POST', url: 'http://127.0.0.1:9/\u202etxt.exe', headers: [], postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a b', value: 'c&d' }] } } },
    ] } };
    const { scenario, notes } = fromHar({}, JSON.stringify(har));
    const [a, b] = scenario.phases[0]!.requests;
    expect(a!.name).toBe('GET /ab');
    expect(sent(a!.path)).toBe('/ab?q={{x}}');
    expect(a!.headers).toEqual({ 'X-Ok': 'fine' });
    expect(notes).toContain('left out 2 header(s) whose name or value HTTP does not allow (a line break, a control character)');
    expect(b!.name).toBe('POST /%E2%80%AEtxt.exe');
    expect(b!.body).toBe('a+b=c%26d');
    expect(b!.headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' });
  });

  it('more requests than a journey holds: refused in one line, nothing made', () => {
    const entries = Array.from({ length: 300 }, (_, i) => ({ request: { method: 'GET', url: `http://127.0.0.1:9/item/${i}`, headers: [] } }));
    expect(() => fromHar({}, JSON.stringify({ log: { entries } }))).toThrow(/^300 requests to 127\.0\.0\.1:9; a journey holds at most 256 steps: record a shorter session \(or pick another host with --host\)$/);
  });

  it('a recording longer than a journey, asked to keep what fits: its first 256 steps, noted', () => {
    const entries = Array.from({ length: 300 }, (_, i) => ({ request: { method: 'GET', url: `http://127.0.0.1:9/item/${i}`, headers: [] } }));
    const { scenario, notes } = fromHar({ overLimit: 'keep-first' }, JSON.stringify({ log: { entries } }));
    expect(scenario.phases[0]!.requests.map((r) => r.path)).toEqual(entries.slice(0, 256).map((e) => new URL(e.request.url).pathname));
    expect(notes).toContain('kept the first 256 of 300 requests to 127.0.0.1:9: a journey holds at most 256 steps');
  });

  it('a long path gets a readable name, and names stay unique', () => {
    const long = `/x/${'a'.repeat(500)}`;
    const entries = [1, 2].map((n) => ({ request: { method: 'POST', url: `http://127.0.0.1:9${long}`, headers: [], postData: { mimeType: 'text/plain', text: String(n) } } }));
    const names = fromHar({}, JSON.stringify({ log: { entries } })).scenario.phases[0]!.requests.map((r) => r.name);
    expect(names[0]).toHaveLength(120);
    expect(names[1]).toBe(`${names[0]} #2`);
  });

  it('a malformed HAR is one line naming the JSON path', () => {
    const bad = (json: unknown) => () => parseHar(JSON.stringify(json), 'x.har');
    expect(bad({ log: { entries: [{ request: { method: 'GET', url: 'http://127.0.0.1/', headers: [] } }, { request: { method: 'GET', headers: [] } }] } })).toThrow(
      /^"x\.har" is not a HAR file: log\.entries\[1\]\.request\.url: /,
    );
    expect(bad({ log: { entries: [{ request: { method: 'GET', url: 'http://127.0.0.1/', headers: [{ name: 'a', value: 1 }] } }] } })).toThrow(/log\.entries\[0\]\.request\.headers\[0\]\.value/);
    expect(bad({ entries: [] })).toThrow(/^"x\.har" is not a HAR file: log: /);
    expect(() => parseHar('{"log": {"entries": [\n"\u001b]0;title\u0007', 'x.har')).toThrow(/^"x\.har" is not JSON/);
    expect(() => parseHar(`${'['.repeat(100)}${']'.repeat(100)}`, 'x.har')).toThrow(/nested deeper/);
    for (const f of [bad({ entries: [] }), () => parseHar('{', 'x\n.har')]) expect(f).toThrow(/^[^\n]*$/);
  });

  it('a file over the size limit is refused before it is read', async () => {
    const file = join(dir, 'huge.har');
    writeFileSync(file, '');
    truncateSync(file, MAX_HAR_BYTES + 1);
    await expect(importHarFile(file)).rejects.toThrow(`${JSON.stringify(file)} is ${MAX_HAR_BYTES + 1} bytes; a HAR file may have at most 64 MiB`);
    await expect(importHarFile(join(dir, 'missing.har'))).rejects.toThrow(/missing\.har" does not exist$/);
  });
});

describe('import-curl', () => {
  // as Chromium's "Copy as cURL (bash)" writes it: line continuations, $'...' for a body with a newline
  const chrome = [
    "curl 'http://127.0.0.1:8080/api/echo?x=1' \\",
    "  -H 'Accept: */*' \\",
    "  -H 'Cookie: sid=1; theme=dark' \\",
    "  -H 'content-type: application/json' \\",
    "  --data-raw $'{\"note\":\"it\\'s\\nfine\"}' \\",
    '  --compressed',
  ].join('\n');

  it("reads developer tools' bash quoting, headers and body", () => {
    const { request, notes } = parseCurl(chrome);
    expect(request.method).toBe('POST');
    expect(request.url.href).toBe('http://127.0.0.1:8080/api/echo?x=1');
    expect(request.headers).toEqual({ Accept: '*/*', 'content-type': 'application/json', 'Accept-Encoding': 'deflate, gzip, br, zstd' });
    expect(request.body).toBe('{"note":"it\'s\nfine"}');
    expect(notes).toEqual(['left out secret headers (cookie); --keep-secrets keeps them']);
    const imported = curlToScenario(chrome);
    const scenario = JSON.parse(imported.text) as Out;
    expect(scenario.servers).toEqual([{ architecture: 'external', label: '127.0.0.1:8080', url: 'http://127.0.0.1:8080' }]);
    expect(scenario.phases[0]).toMatchObject({ executor: 'closed', users: 1, flow: true, count: PASSES });
    // an import of its own keeps no secret inline: the cookie moved to the credentials file
    expect(scenario.phases[0]!.requests[0]).toMatchObject({ name: 'POST /api/echo', path: '/api/echo?x=1', headers: { Cookie: 'sid={{data.cookie_sid}}; theme={{data.cookie_theme}}' } });
    expect(imported.csv).toBe('cookie_sid,cookie_theme\n1,dark\n');
  });

  it('-X, -d, --json, -G, -I, -u and --url', () => {
    expect(parseCurl("curl -XPUT localhost:9/a -d 'x=1' -d y=2").request).toMatchObject({ method: 'PUT', body: 'x=1&y=2', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(parseCurl('curl --json \'{"a":1}\' http://127.0.0.1:9/j').request).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json', Accept: 'application/json' } });
    const get = parseCurl('curl -G --url http://127.0.0.1:9/s?q=1 --data-urlencode "w=a b"').request;
    expect([get.method, get.url.search, get.body]).toEqual(['GET', '?q=1&w=a%20b', undefined]);
    expect(parseCurl('curl -I http://127.0.0.1:9/').request.method).toBe('HEAD');
    const user = parseCurl('curl -u ada:pw http://127.0.0.1:9/', { keepSecrets: true }).request;
    expect(user.headers).toEqual({ Authorization: `Basic ${Buffer.from('ada:pw').toString('base64')}` });
    const hidden = parseCurl('curl -u ada:pw http://127.0.0.1:9/');
    expect(hidden.request.headers).toEqual({});
    expect(hidden.notes).toEqual(['left out secret headers (authorization); --keep-secrets keeps them']);
  });

  it('unknown flags, -k and a pipe are notes, never fatal; nothing is expanded or read', () => {
    const { request, notes } = parseCurl("curl -sS -k --frobnicate -d @/etc/passwd 'http://127.0.0.1:9/$HOME' | sh");
    expect(request.url.pathname).toBe('/$HOME');
    expect(request.body).toBeUndefined();
    expect(notes).toEqual([
      'read up to "|": what follows is another command',
      'left out 1 body part(s) read from a file (@file): paste the body itself',
      'the command turned TLS verification off (-k/--insecure); the scenario keeps the default, verification on',
      'ignored options it does not read: "--frobnicate"',
    ]);
    const { description } = JSON.parse(curlToScenario('curl -k http://127.0.0.1:9/').text) as Out;
    expect(description).toContain('TLS verification off (-k/--insecure)');
  });

  it('hostile strings: a line break in the URL or a header cannot reach a name or split the request', () => {
    const { request, notes } = parseCurl("curl $'http://127.0.0.1:9/a\\nb\\r' -H $'X-A\\nB: c' -H $'X-Ok: d\\r\\nHost: elsewhere' -H 'X-Fine: {{uuid}}'");
    expect(request.url.pathname).toBe('/ab');
    expect(request.headers).toEqual({ 'X-Fine': '{{uuid}}' });
    expect(notes).toEqual(['left out 2 header(s) whose name or value HTTP does not allow (a line break, a control character)']);
    const scenario = JSON.parse(curlToScenario("curl $'http://127.0.0.1:9/a\\nb' -H 'X-Fine: {{uuid}}'").text) as Out;
    expect(scenario.phases[0]!.requests[0]!.name).toBe('GET /ab');
    // a placeholder-looking value is sent as typed, not as a fresh UUID
    expect(sent(scenario.phases[0]!.requests[0]!.headers!['X-Fine']!)).toBe('{{uuid}}');
  });

  it('refusals are one line each', () => {
    const refuses = (command: string, message: RegExp) => expect(() => parseCurl(command)).toThrow(message);
    refuses('wget http://127.0.0.1/', /^not a curl command: it starts with "wget", not curl$/);
    refuses('curl -H', /ends after "-H", which takes a value/);
    refuses('curl -s', /has no URL/);
    refuses('curl ftp://127.0.0.1/x', /is ftp:; a scenario sends http\(s\)/);
    refuses('curl -X OPTIONS http://127.0.0.1/', /method "OPTIONS" is not one a scenario sends/);
    refuses(`curl ${'a'.repeat(300 * 1024)}`, /at most 262144 are read/);
    refuses("curl $'\\n\\u001b[2J'", /^not a curl command|^the curl command's URL "\\n\\u001b\[2J" is not a URL$|^[^\n]*$/);
  });
});

describe('the editor adds a pasted curl command to a phase', () => {
  const scenario = {
    name: 'mine',
    servers: [{ architecture: 'external', url: 'http://127.0.0.1:8080' }],
    phases: [{ executor: 'sequential', count: 3, requests: [{ path: '/api/echo', method: 'POST' }] }],
  };

  it('under a name of its own, the scenario still valid', () => {
    const added = addCurlToScenario(JSON.stringify(scenario), "curl -X POST 'http://127.0.0.1:8080/api/echo' --json '{}'", 0);
    expect(added.name).toBe('POST /api/echo (2)');
    const doc = JSON.parse(added.text) as Out;
    expect(doc.phases[0]!.requests.map((r) => r.name ?? `${r.method} ${r.path}`)).toEqual(['POST /api/echo', 'POST /api/echo (2)']);
    expect(validateScenario(doc).ok).toBe(true);
    expect(added.notes).toEqual([]);
  });

  it("notes a host the scenario's servers do not have, and refuses a scenario it cannot add to", () => {
    expect(addCurlToScenario(JSON.stringify(scenario), 'curl http://example.com/x', 0).notes).toEqual(['the command was sent to example.com; in this scenario the request goes to each of its servers']);
    expect(() => addCurlToScenario('{"phases": 3}', 'curl http://127.0.0.1/', 0)).toThrow('the scenario has no phases to add the request to (phases is not a list)');
    expect(() => addCurlToScenario(JSON.stringify(scenario), 'curl http://127.0.0.1/', 4)).toThrow('the scenario has no phases[4]');
    expect(() => addCurlToScenario('{', 'curl http://127.0.0.1/', 0)).toThrow(/invalid JSON at line 1/);
  });
});
