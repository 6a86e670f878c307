import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { insideJsonStrings, jsonStringText, jsonValueText, parseTemplate } from '../../contract/variables.js';
import { validateScenario } from '../scenario/validate.js';
import { curlToScenario } from './curl.js';
import { harToScenario, type HarEntry } from './har.js';

// Credentials in a recording (issue 39): a password, token, API key or session cookie that no
// correlation replaced leaves the scenario's text for {{data.<column>}}, its value a column of the
// one-row credentials CSV; never kept inline, never silently dropped (the replay's login must work).
// Hostile: a secret in every header, query and body of a recording reaches neither the scenario's
// text nor its notes, and the CSV (read back as the run reads data files) gives each value exactly.

interface Step {
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
const ORIGIN = 'http://127.0.0.1:9';
const list = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));
const request = (method: string, path: string, headers: Record<string, string>, body?: { mime: string; text: string }): HarEntry => ({
  request: { method, url: `${ORIGIN}${path}`, headers: list(headers), ...(body === undefined ? {} : { postData: { mimeType: body.mime, text: body.text } }) },
});

function imported(entries: HarEntry[]) {
  const result = harToScenario(entries, 'secrets.har', { credentialsFile: 'secrets.credentials.csv' });
  const doc = JSON.parse(result.text) as { phases: { requests: Step[] }[] };
  expect(validateScenario(doc).ok).toBe(true);
  const rows = result.csv === null ? [] : (parse(result.csv, { columns: true }) as Record<string, string>[]);
  return { ...result, steps: doc.phases[0]!.requests, row: rows[0] ?? {}, rows: rows.length };
}

/** What the driver sends for a template with the row's values in place of {{data.x}}; in a JSON body escaped as it escapes them (request-compile.ts). */
function sentWith(template: string, row: Record<string, string>, json = false): string {
  const parsed = parseTemplate(template);
  if (!parsed.ok) throw new Error(parsed.message);
  const inside = insideJsonStrings(parsed.parts);
  let slot = 0;
  return parsed.parts
    .map((p) => {
      if (typeof p === 'string') return p;
      const value = p.kind === 'data' ? row[p.column]! : `<${p.kind}>`;
      return !json ? value : inside[slot++] ? jsonStringText(value) : jsonValueText(value);
    })
    .join('');
}

describe('credentials move to the credentials file', () => {
  it("a JSON login: the password and its login name move, the rest stays; the replay sends what was recorded", () => {
    const body = '{"email":"ada@example.com","password":"hunter2-Ünï\\"q","remember":true}';
    const { steps, row, rows, credentials } = imported([request('POST', '/login', { 'Content-Type': 'application/json' }, { mime: 'application/json', text: body })]);
    expect(steps[0]!.body).toBe('{"email":"{{data.email}}","password":"{{data.password}}","remember":true}');
    expect(credentials).toEqual({ file: 'secrets.credentials.csv', columns: ['email', 'password'] });
    expect(rows).toBe(1);
    expect(row).toEqual({ email: 'ada@example.com', password: 'hunter2-Ünï"q' });
  });

  it('a form login: moved as it was sent (the driver writes a form value as it is)', () => {
    const { steps, row } = imported([
      request('POST', '/login', { 'Content-Type': 'application/x-www-form-urlencoded' }, { mime: 'application/x-www-form-urlencoded', text: 'username=ada&password=p%26ss+word&next=%2Fhome' }),
    ]);
    expect(steps[0]!.body).toBe('username={{data.username}}&password={{data.password}}&next=%2Fhome');
    expect(row).toEqual({ username: 'ada', password: 'p%26ss+word' });
    expect(sentWith(steps[0]!.body!, row)).toBe('username=ada&password=p%26ss+word&next=%2Fhome');
  });

  it('headers and query: Authorization after its scheme, each Cookie pair, a header named like a secret, a credential query parameter', () => {
    const basic = `Basic ${Buffer.from('ada:pw').toString('base64')}`;
    const { steps, row, credentials } = imported([
      request('GET', '/a?api_key=K%2B1-abc&page=2', { Authorization: basic, Cookie: 'sid=s1d-value; theme=dark', 'X-Api-Key': 'xk-123456', Accept: 'application/json' }),
      request('GET', '/b', { Authorization: 'Bearer static-token-9', 'X-Api-Key': 'xk-123456' }),
    ]);
    expect(steps[0]!.path).toBe('/a?api_key={{data.api_key}}&page=2');
    expect(steps[0]!.headers).toEqual({ Authorization: 'Basic {{data.basic_auth}}', Cookie: 'sid={{data.cookie_sid}}; theme={{data.cookie_theme}}', 'X-Api-Key': '{{data.x_api_key}}', Accept: 'application/json' });
    // the same key sent again is the same column
    expect(steps[1]!.headers).toEqual({ Authorization: 'Bearer {{data.token}}', 'X-Api-Key': '{{data.x_api_key}}' });
    expect(credentials!.columns).toEqual(['basic_auth', 'cookie_sid', 'cookie_theme', 'x_api_key', 'api_key', 'token']);
    // the query value is kept decoded: the driver percent-encodes it in the path
    expect(row.api_key).toBe('K+1-abc');
    expect(sentWith(steps[0]!.headers!.Authorization!, row)).toBe(basic);
  });

  it('hostile: a secret in every header, query and body of a recording reaches neither the text nor the notes, and the CSV gives each back exactly', () => {
    const secret = (i: number) => `S3CRET-${i}-"quoted",comma\nline-${'x'.repeat(i)}`;
    const headerSecret = (i: number) => `S3CRET-h${i}-${'y'.repeat(i)}`;
    const entries = Array.from({ length: 20 }, (_, i) =>
      request(
        'POST',
        `/api/${i}?token=${encodeURIComponent(headerSecret(i))}&n=${i}`,
        { 'Content-Type': 'application/json', Authorization: `Bearer ${headerSecret(i)}`, Cookie: `sid=${headerSecret(i)}; other=${headerSecret(i + 100)}`, 'X-Auth-Token': headerSecret(i + 200), 'X-Api-Key': headerSecret(i + 300) },
        { mime: 'application/json', text: JSON.stringify({ user: `user${i}`, password: secret(i), nested: { client_secret: secret(i + 50), items: [{ apiKey: secret(i + 60) }] } }) },
      ),
    );
    const { text, notes, proposals, credentials, row, steps } = imported(entries);
    const all = [...Array.from({ length: 20 }, (_, i) => [secret(i), secret(i + 50), secret(i + 60), headerSecret(i), headerSecret(i + 100), headerSecret(i + 200), headerSecret(i + 300)]).flat()];
    const shown = [text, ...notes, JSON.stringify(proposals), JSON.stringify(credentials)].join('\n');
    for (const s of all) {
      expect(shown).not.toContain(s);
      expect(shown).not.toContain(JSON.stringify(s).slice(1, -1));
      expect(shown).not.toContain(encodeURIComponent(s));
    }
    expect(Object.values(row)).toEqual(expect.arrayContaining(all));
    // every step sends exactly what was recorded once the row's values are in
    steps.forEach((step, i) => {
      expect(sentWith(step.body!, row, true)).toBe(entries[i]!.request.postData!.text);
      expect(sentWith(step.headers!['X-Auth-Token']!, row)).toBe(headerSecret(i + 200));
    });
  });

  it('a curl command: -u, a cookie and a password in --data all move; nothing is left inline', () => {
    const result = curlToScenario(`curl -u ada:pa55word -b 'sid=abc123456' --data 'user=ada&password=pa55word' http://127.0.0.1:9/login`, { credentialsFile: 'c.csv' });
    expect(result.text).not.toMatch(/pa55word|abc123456|YWRhOnBhNTV3b3Jk/);
    expect(result.credentials!.columns).toEqual(['basic_auth', 'cookie_sid', 'user', 'password']);
  });
});
