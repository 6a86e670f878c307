import { describe, expect, it } from 'vitest';
import { postmanToScenario } from './postman.js';

// A collection's credentials written literally in a request's body or query (issue 39): each moves to
// the data file, the request keeping its placeholder where the value stood, and nothing else moves
// (postman-literal-credentials.ts, the names from contract/secret-names.ts). Before, a raw JSON or
// form body and a query went into the scenario as written, password and all.

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

interface Out {
  phases: { requests: { name: string; path: string; body?: string }[] }[];
}

/** A collection of one request `request`, imported: the request as written, the data row, the notes. */
function importOne(request: Record<string, unknown>, variable: { key: string; value: string }[] = []) {
  const collection = { info: { name: 'c', schema: SCHEMA }, variable, item: [{ name: 'r', request: { method: 'POST', ...request } }] };
  const result = postmanToScenario(JSON.stringify(collection), 'c.postman.json', { baseUrl: 'http://127.0.0.1:4010' });
  const req = (JSON.parse(result.text) as Out).phases[0]!.requests[0]!;
  const row = result.files?.[0] === undefined ? {} : (JSON.parse(result.files[0].text) as Record<string, unknown>);
  return { req, row, notes: result.notes, text: result.text };
}

const json = (value: unknown) => ({ mode: 'raw', raw: JSON.stringify(value, null, 2), options: { raw: { language: 'json' } } });

describe("a collection's literal credentials in bodies and queries", () => {
  it('a JSON login (escapes in the password, nested fields): the password and its login name moved, the value kept unescaped; other fields stay', () => {
    const { req, row, notes, text } = importOne({ url: 'http://x.test/login', body: json({ email: 'ada@example.com', password: 'p"w\\1', profile: { sortKey: 'a-b-c', refresh_token: 'rt-123456' } }) });
    expect(JSON.parse(req.body!.replace(/\{\{data\.[^}]+\}\}/g, 'X'))).toEqual({ email: 'X', password: 'X', profile: { sortKey: 'a-b-c', refresh_token: 'X' } });
    expect(row).toMatchObject({ 'body.email': 'ada@example.com', 'body.password': 'p"w\\1', 'body.refresh_token': 'rt-123456' });
    expect(text).not.toContain('rt-123456');
    expect(notes.join('\n')).toContain('body.password (the password field of a body)');
  });

  it('a body without a password: its user stays; a value that is a {{variable}} goes to its own column, not twice', () => {
    const { req, row } = importOne({ url: 'http://x.test/search', body: json({ user: 'ada', token: '{{tok}}' }) }, [{ key: 'tok', value: 'from-a-variable' }]);
    expect(req.body).toContain('"user": "ada"');
    expect(req.body).toContain('"token": "{{data.tok}}"');
    expect(row).toEqual({ tok: 'from-a-variable' });
  });

  it('a form body and a query: each credential value moved, held as it was sent (a written %2B stays %2B, not %252B); a parameter with no value kept as it is', () => {
    const { req, row } = importOne({
      url: 'http://x.test/token?api_key=k%2B1&flag&page=2&q=a%20b',
      body: { mode: 'urlencoded', urlencoded: [{ key: 'username', value: 'ada' }, { key: 'password', value: 'a b&c' }, { key: 'scope', value: 'read' }] },
    });
    expect(req.path).toBe('/token?api_key={{data.query.api_key}}&flag&page=2&q=a%20b');
    expect(req.body).toBe('username={{data.body.username}}&password={{data.body.password}}&scope=read');
    expect(row).toMatchObject({ 'query.api_key': 'k%2B1', 'body.username': 'ada', 'body.password': 'a%20b%26c' });
  });

  it('a body that is not JSON (text): taken as written', () => {
    const { req } = importOne({ url: 'http://x.test/note', body: { mode: 'raw', raw: '"password": "plain text"', options: { raw: { language: 'text' } } } });
    expect(req.body).toBe('"password": "plain text"');
  });
});
