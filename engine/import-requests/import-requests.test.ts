import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../contract/variables.js';
import { validateScenario } from '../scenario/validate.js';
import { addCurlToScenario } from './add-curl.js';
import { curlToScenario, parseCurl } from './curl.js';
import { harToScenario, importHarFile, parseHar } from './har.js';
import { MAX_HAR_BYTES } from './limits.js';

// Bringing requests in (issue 28), in the engine: what a HAR or a curl command keeps and leaves out,
// hostile input (quoting, line breaks, braces, huge files), and that every result validates.

const FIXTURE = join(import.meta.dirname, 'fixtures', 'shop.har');
const dir = mkdtempSync(join(tmpdir(), 'loadscope-import-requests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Out {
  name: string;
  description: string;
  servers: { architecture: string; label: string; url: string }[];
  phases: { count: number; requests: { name: string; method: string; path: string; headers?: Record<string, string>; body?: string; weight?: number }[] }[];
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
  it("keeps the main host's API and page requests as named endpoints and says what it left out", () => {
    const { scenario, notes } = fromHar();
    expect(scenario.servers).toEqual([{ architecture: 'external', label: '127.0.0.1:8080', url: 'http://127.0.0.1:8080' }]);
    const requests = scenario.phases[0]!.requests;
    expect(requests.map((r) => r.name)).toEqual(['GET /fib?n=5', 'POST /api/login', 'POST /api/echo']);
    // the same request twice is one endpoint sent twice as often
    expect(requests[0]!.weight).toBe(2);
    expect(scenario.phases[0]!.count).toBe(4);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^left out 2 static asset request\(s\)/),
        expect.stringMatching(/^left out 1 request\(s\) to hosts other than 127\.0\.0\.1:8080/),
        expect.stringMatching(/^left out 1 request\(s\) that are not http\(s\)/),
        expect.stringMatching(/^left out 1 "OPTIONS" request\(s\)/),
        'left out secret headers (authorization, cookie, x-csrf-token); --keep-secrets keeps them',
      ]),
    );
    for (const note of notes) expect(scenario.description).toContain(`${note.charAt(0).toUpperCase()}${note.slice(1)}.`);
  });

  it('drops framing and pseudo headers always, and secrets unless asked', () => {
    const plain = fromHar().scenario.phases[0]!.requests;
    expect(plain[0]!.headers).toEqual({ Accept: 'text/html' });
    expect(plain[1]!.headers).toEqual({ 'Content-Type': 'application/json' });
    const kept = fromHar({ keepSecrets: true }).scenario.phases[0]!.requests;
    expect(kept[0]!.headers).toEqual({ Accept: 'text/html', Cookie: 'session=abc' });
    expect(kept[1]!.headers).toEqual({ 'Content-Type': 'application/json', 'X-CSRF-Token': 't0k' });
    expect(kept[2]!.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer abc' });
  });

  it('keeps assets and other hosts when asked, and --host picks the host', () => {
    const all = fromHar({ includeAssets: true, allHosts: true }).scenario.phases[0]!.requests.map((r) => r.name);
    expect(all).toEqual(['GET /fib?n=5', 'GET /site.css', 'GET /logo.png', 'POST /api/login', 'POST /api/echo', 'GET /collect?x=1']);
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
    expect(a!.name).toBe('GET /ab?q={{x}}');
    expect(sent(a!.path)).toBe('/ab?q={{x}}');
    expect(a!.headers).toEqual({ 'X-Ok': 'fine' });
    expect(notes).toContain('left out 2 header(s) whose name or value HTTP does not allow (a line break, a control character)');
    expect(b!.name).toBe('POST /%E2%80%AEtxt.exe');
    expect(b!.body).toBe('a+b=c%26d');
    expect(b!.headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' });
  });

  it('more distinct requests than a phase holds: the first 256 kept, the rest noted', () => {
    const entries = Array.from({ length: 300 }, (_, i) => ({ request: { method: 'GET', url: `http://127.0.0.1:9/item/${i}`, headers: [] } }));
    const { scenario, notes } = fromHar({}, JSON.stringify({ log: { entries } }));
    expect(scenario.phases[0]!.requests).toHaveLength(256);
    expect(notes).toContain('left out 44 more distinct request(s): a phase holds at most 256 requests and a scenario 1 MiB of text');
  });

  it('a long path gets a readable name, and names stay unique', () => {
    const long = `/x/${'a'.repeat(500)}`;
    const entries = [1, 2].map((n) => ({ request: { method: 'POST', url: `http://127.0.0.1:9${long}`, headers: [], postData: { mimeType: 'text/plain', text: String(n) } } }));
    const names = fromHar({}, JSON.stringify({ log: { entries } })).scenario.phases[0]!.requests.map((r) => r.name);
    expect(names[0]).toHaveLength(120);
    expect(names[1]).toBe(`${names[0]} (2)`);
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
    const scenario = JSON.parse(curlToScenario(chrome).text) as Out;
    expect(scenario.phases[0]!.requests[0]!.name).toBe('POST /api/echo?x=1');
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
