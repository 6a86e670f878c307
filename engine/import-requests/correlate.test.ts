import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/validate.js';
import { harToScenario, type HarEntry } from './har.js';
import type { HarOptions } from './har.js';

// Correlation (issue 39): a value a response returned that a later request sends back becomes an
// extract on the step that got it and {{vars.<name>}} where it is sent, each proposed with a preview.
// The rule holds against false correlations: exact matches only, standing alone, long enough (a
// number only as an id in a path), never the client's own value echoed back, and the extract must
// find exactly the value in the recorded response.

const ORIGIN = 'http://127.0.0.1:9';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

interface Options {
  headers?: Record<string, string>;
  body?: string;
  mime?: string;
  status?: number;
  answer?: string;
  answerMime?: string;
  answerHeaders?: Record<string, string>;
}
const list = (h: Record<string, string> = {}) => Object.entries(h).map(([name, value]) => ({ name, value }));
function entry(method: string, path: string, o: Options = {}): HarEntry {
  return {
    request: { method, url: `${ORIGIN}${path}`, headers: list(o.headers), ...(o.body === undefined ? {} : { postData: { mimeType: o.mime ?? 'application/json', text: o.body } }) },
    response: { status: o.status ?? 200, headers: list(o.answerHeaders), content: { mimeType: o.answerMime ?? 'application/json', ...(o.answer === undefined ? {} : { text: o.answer }) } },
  };
}

interface Step {
  name: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  extract?: Record<string, string>;
}
function imported(entries: HarEntry[], opts: HarOptions = {}) {
  const result = harToScenario(entries, 'session.har', opts);
  const doc = JSON.parse(result.text) as { phases: { requests: Step[] }[] };
  expect(validateScenario(doc).ok).toBe(true);
  return { ...result, steps: doc.phases[0]!.requests };
}

const login = entry('POST', '/login', { body: '{"email":"ada@example.com","password":"pw-1234"}', answer: JSON.stringify({ accessToken: JWT, user: { email: 'ada@example.com', id: 1 } }) });
const bearer = { Authorization: `Bearer ${JWT}` };

describe('correlation of values a response gave and a later request sent', () => {
  it("a login's token sent in Authorization: extracted on the login, {{vars}} in every later header, the preview naming source and places", () => {
    const { steps, proposals } = imported([login, entry('GET', '/me', { headers: bearer }), entry('GET', '/items', { headers: bearer })]);
    expect(steps[0]!.extract).toEqual({ var: 'accessToken', from: 'json', path: 'accessToken' });
    expect(steps[1]!.headers).toEqual({ Authorization: 'Bearer {{vars.accessToken}}' });
    expect(steps[2]!.headers).toEqual({ Authorization: 'Bearer {{vars.accessToken}}' });
    expect(proposals).toEqual([
      {
        id: 'c1',
        var: 'accessToken',
        value: 'eyJhbGci…',
        chars: JWT.length,
        from: { step: 0, name: 'POST /login', where: 'JSON accessToken' },
        uses: [
          { step: 1, name: 'GET /me', field: 'phases[0].requests[1].headers.Authorization', shows: 'Bearer {{vars.accessToken}}' },
          { step: 2, name: 'GET /items', field: 'phases[0].requests[2].headers.Authorization', shows: 'Bearer {{vars.accessToken}}' },
        ],
        accepted: true,
      },
    ]);
  });

  it('a JSON-number id: correlated only as a whole path segment, never inside another number, a word, a query or a body', () => {
    const created = entry('POST', '/items', { body: '{"name":"pen"}', answer: '{"name":"pen","id":6}' });
    const { steps } = imported([
      created,
      entry('GET', '/items/6'),
      entry('GET', '/items/66'),
      entry('GET', '/v6/items/6?page=6'),
      entry('PATCH', '/items/6', { body: '{"qty":6,"note":"6"}' }),
    ]);
    expect(steps[0]!.extract).toEqual({ var: 'items_id', from: 'json', path: 'id' });
    expect(steps.map((s) => s.path)).toEqual(['/items', '/items/{{vars.items_id}}', '/items/66', '/v6/items/{{vars.items_id}}?page=6', '/items/{{vars.items_id}}']);
    expect(steps[4]!.body).toBe('{"qty":6,"note":"6"}');
  });

  it('a number under a key that names no id (a count, a total) is not correlated, even as a path segment', () => {
    const { steps, proposals } = imported([entry('GET', '/stats', { answer: '{"count":7,"total":12}' }), entry('GET', '/pages/7')]);
    expect(proposals).toEqual([]);
    expect(steps[1]!.path).toBe('/pages/7');
  });

  it("an echo is not correlated: the e-mail a response repeats is the client's own value", () => {
    const me = entry('GET', '/me', { headers: bearer, answer: JSON.stringify({ email: 'ada@example.com', plan: 'free' }) });
    const { steps, proposals } = imported([login, me, entry('POST', '/profile', { headers: bearer, body: '{"email":"ada@example.com"}' })]);
    expect(proposals.map((p) => p.var)).toEqual(['accessToken']);
    expect(steps[1]!.extract).toBeUndefined();
    expect(steps[2]!.body).toBe('{"email":"ada@example.com"}');
  });

  it('a value shorter than 8 characters, or standing inside a longer word, is left as recorded', () => {
    const { steps, proposals } = imported([
      entry('GET', '/start', { answer: '{"code":"abc1234","ref":"R-12345678"}' }),
      entry('GET', '/use?code=abc1234&ref=XR-12345678Z&again=R-12345678'),
    ]);
    expect(proposals.map((p) => p.var)).toEqual(['ref']);
    expect(steps[1]!.path).toBe('/use?code=abc1234&ref=XR-12345678Z&again={{vars.ref}}');
  });

  it('a CSRF token in a hidden field of a page: a regex extract that finds exactly it, sent back in a form body', () => {
    const page = '<html><form><input type="hidden" name="other" value="not-this-one-123"><input name="csrf_token" type="hidden" value="k3y-Zx81-aa9Q"></form></html>';
    const { steps, proposals } = imported([
      entry('GET', '/form', { answer: page, answerMime: 'text/html' }),
      entry('POST', '/form', { mime: 'application/x-www-form-urlencoded', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'title=hi&csrf_token=k3y-Zx81-aa9Q' }),
    ]);
    expect(steps[0]!.extract).toEqual({ var: 'csrf_token', from: 'regex', pattern: `name=["']csrf_token["'][^>]*value=["']([^"']*)["']` });
    expect(new RegExp(steps[0]!.extract!.pattern!).exec(page)?.[1]).toBe('k3y-Zx81-aa9Q');
    expect(steps[1]!.body).toBe('title=hi&csrf_token={{vars.csrf_token}}');
    expect(proposals[0]!.from.where).toBe("the page's hidden field csrf_token");
  });

  it("a session cookie: Set-Cookie's first cookie by a pattern on the header (the driver keeps the first header of a name), sent back in its Cookie pair", () => {
    const answerHeaders = { 'Set-Cookie': 'sid=5e55i0n-abc123; Path=/; HttpOnly' };
    const second = { name: 'Set-Cookie', value: 'other=not-the-first-1; Path=/' };
    const loginEntry = entry('POST', '/login', { body: '{}', answerHeaders });
    loginEntry.response!.headers!.push(second);
    const { steps } = imported([loginEntry, entry('GET', '/account', { headers: { Cookie: 'sid=5e55i0n-abc123; other=not-the-first-1' } })]);
    expect(steps[0]!.extract).toEqual({ var: 'sid', from: 'header', name: 'Set-Cookie', pattern: '^sid=([^;]*)' });
    expect(steps[1]!.headers).toEqual({ Cookie: 'sid={{vars.sid}}; other={{data.cookie_other}}' });
  });

  it('a hidden field whose name the page has twice: only the value the extract would find is correlated', () => {
    const page = '<input type="hidden" name="csrf" value="first-form-111"><input type="hidden" name="csrf" value="second-form-222">';
    const { steps, proposals } = imported([entry('GET', '/two', { answer: page, answerMime: 'text/html' }), entry('POST', '/two', { headers: { 'X-Csrf': 'second-form-222' } })]);
    expect(proposals).toEqual([]);
    expect(steps[1]!.headers).toEqual({ 'X-Csrf': '{{data.x_csrf}}' });
  });

  it('a step that extracts from its body asks for it uncompressed (the driver does not decompress); others keep Accept-Encoding', () => {
    const gzip = { 'Accept-Encoding': 'gzip, br' };
    const { steps, notes } = imported([entry('POST', '/login', { headers: gzip, body: '{}', answer: JSON.stringify({ token: 'T0KEN-1234567' }) }), entry('GET', '/me', { headers: { ...gzip, 'X-Token': 'T0KEN-1234567' } })]);
    expect(steps[0]!.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(steps[1]!.headers).toEqual({ 'Accept-Encoding': 'gzip, br', 'X-Token': '{{vars.token}}' });
    expect(notes).toContain('left out Accept-Encoding on 1 step(s) that extract from the body: the replay reads a body as it comes, so it must not come compressed');
  });

  it('a response header sent back as a request header; a value inside a JSON body string, JSON-escaped as the driver writes it', () => {
    const { steps } = imported([entry('GET', '/session', { answerHeaders: { 'X-Session-Token': 'S3ss10n-ABCDEFG' } }), entry('POST', '/act', { headers: { 'X-Session-Token': 'S3ss10n-ABCDEFG' } })]);
    expect(steps[0]!.extract).toEqual({ var: 'x-session-token', from: 'header', name: 'X-Session-Token' });
    expect(steps[1]!.headers).toEqual({ 'X-Session-Token': '{{vars.x-session-token}}' });

    const odd = 'tok"en\\with-quote';
    const { steps: again } = imported([entry('GET', '/note', { answer: JSON.stringify({ note: odd }) }), entry('POST', '/act', { body: JSON.stringify({ keep: odd, other: 'x' }) })]);
    expect(again[1]!.body).toBe('{"keep":"{{vars.note}}","other":"x"}');
  });

  it('one extract a step: of two values one response gave, the one sent in more places is correlated, the other left as recorded with a note', () => {
    const answer = JSON.stringify({ token: 'T0KEN-aaaa-bbbb', trace: 'TR4CE-cccc-dddd' });
    const { steps, notes } = imported([
      entry('POST', '/start', { body: '{}', answer }),
      entry('GET', '/a?t=TR4CE-cccc-dddd', { headers: { 'X-Token': 'T0KEN-aaaa-bbbb' } }),
      entry('GET', '/b', { headers: { 'X-Token': 'T0KEN-aaaa-bbbb' } }),
    ]);
    expect(steps[0]!.extract).toEqual({ var: 'token', from: 'json', path: 'token' });
    expect(steps[1]!.path).toBe('/a?t=TR4CE-cccc-dddd');
    expect(notes).toContain('1 more value(s) sent back were left as recorded: the step that gave each extracts another value already (a step extracts one)');
  });

  it('the latest response before the first use is the source, and an extract that would not find the value is not proposed', () => {
    const first = entry('POST', '/login', { body: '{}', answer: JSON.stringify({ token: 'OLD-token-000' }) });
    const second = entry('POST', '/refresh', { body: '{}', answer: JSON.stringify({ token: 'NEW-token-111', 'a.b': 'dotted-key-value' }) });
    const { steps, proposals } = imported([first, second, entry('GET', '/x', { headers: { Authorization: 'Bearer NEW-token-111', 'X-Dotted': 'dotted-key-value' } })]);
    expect(steps[0]!.extract).toBeUndefined();
    expect(steps[1]!.extract).toEqual({ var: 'token', from: 'json', path: 'token' });
    // a key holding a dot cannot be written as a JSON path the extract reads: not proposed
    expect(proposals.map((p) => p.var)).toEqual(['token']);
    expect(steps[2]!.headers!['X-Dotted']).toBe('dotted-key-value');
  });

  it('the preview of a replaced body: cut either side of the placeholder, a password beside it shown as its {{data}} column, never its value', () => {
    const body = `{"comment":"${'long words '.repeat(8)}","ref":"${JWT}","password":"pw-secret-9","more":"${'tail '.repeat(10)}"}`;
    const { proposals } = imported([login, entry('POST', '/profile', { body })]);
    const shows = proposals[0]!.uses[0]!.shows;
    expect(shows).toMatch(/^….*"ref":"\{\{vars\.accessToken\}\}","password":"\{\{data\.pa.*…$/);
    expect(shows.length).toBeLessThanOrEqual('{{vars.accessToken}}'.length + 2 * 28 + 2);
    expect(shows).not.toContain('pw-secret-9');
  });

  it('not taken (--correlate none): the preview shows the field as sent, the token read from the credentials file, never the token', () => {
    const { proposals } = imported([login, entry('GET', '/me', { headers: bearer })], { correlate: 'none' });
    expect(proposals[0]!.uses[0]!.shows).toBe('Bearer {{data.token}}');
  });

  it('a short token (10 characters) named like a credential: the proposal and each preview show its first 4 only, taken or not', () => {
    const entries = [
      entry('POST', '/session', { body: '{"user":"ada"}', answer: '{"sessionToken":"tok-4f1c9a"}' }),
      entry('GET', '/items', { headers: { 'X-Ref': 'tok-4f1c9a' } }),
    ];
    for (const correlate of ['all', 'none'] as const) {
      const { proposals } = imported(entries, { correlate });
      expect(proposals.map((p) => [p.var, p.value])).toEqual([['sessionToken', 'tok-…']]);
      expect(proposals[0]!.uses[0]!.shows).toBe(correlate === 'all' ? '{{vars.sessionToken}}' : 'tok-…');
      expect(JSON.stringify(proposals)).not.toContain('tok-4f1c9a');
    }
  });

  it('--correlate: none keeps recorded values (a token then moves to the credentials file), ids take only those named, an unknown id is one line', () => {
    const entries = [login, entry('POST', '/items', { headers: bearer, body: '{}', answer: '{"id":41}' }), entry('GET', '/items/41', { headers: bearer })];
    const none = imported(entries, { correlate: 'none' });
    expect(none.proposals.map((p) => [p.id, p.accepted])).toEqual([['c1', false], ['c2', false]]);
    expect(none.steps[1]!.headers).toMatchObject({ Authorization: 'Bearer {{data.token}}' });
    expect(none.steps[2]!.path).toBe('/items/41');
    expect(none.text).not.toContain(JWT);

    const some = imported(entries, { correlate: ['c2'] });
    expect(some.steps[2]!.path).toBe('/items/{{vars.items_id}}');
    expect(some.steps[0]!.extract).toBeUndefined();
    expect(() => imported(entries, { correlate: ['c9'] })).toThrow(/^--correlate names c9, which is not proposed \(proposals: c1, c2\)$/);
  });
});
