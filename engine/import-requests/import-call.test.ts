import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { calls as apiContract } from '../../contract/api.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// The UI's imports through the one typed API (requests:import-har, requests:import-curl; issue 39):
// a preview keeps nothing; kept, the credentials are kept as an editor's upload of a data file is (the
// draft keeps the file, the scenario names it credentials.csv, and it validates with it); no secret
// value ever travels back in the answer; a recording longer than a journey holds is one line and
// nothing is kept.

const t = useTempEngine('import-call');
const SECRET = 'pa55-w0rd-SECRET';
const har = (n: number) =>
  JSON.stringify({
    log: {
      entries: Array.from({ length: n }, (_, i) => ({
        request: {
          method: 'POST',
          url: `http://127.0.0.1:9/login/${i}`,
          headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Cookie', value: `sid=${SECRET}-${i}` }],
          postData: { mimeType: 'application/json', text: JSON.stringify({ user: 'ada', password: `${SECRET}-${i}` }) },
        },
        response: { status: 200, content: { mimeType: 'application/json', text: JSON.stringify({ token: `T0KEN-${i}-abcdefgh` }) } },
      })),
    },
  });
const CSV = `cookie_sid,user,password,cookie_sid_2,password_2\n${SECRET}-0,ada,${SECRET}-0,${SECRET}-1,${SECRET}-1\n`;
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

async function importHar(text: string, keep: boolean) {
  const raw = await t.engine.handlers['requests:import-har'](apiContract['requests:import-har'].request.parse({ text, name: 'session.har', keep }));
  expect(JSON.stringify(raw)).not.toContain(SECRET);
  return apiContract['requests:import-har'].response.parse(raw);
}

describe('requests:import-har and requests:import-curl', () => {
  it('a preview: the journey and its credentials columns, nothing kept, no secret in the answer', async () => {
    const answer = await importHar(har(2), false);
    expect(answer.credentials).toEqual({ file: 'credentials.csv', columns: ['cookie_sid', 'user', 'password', 'cookie_sid_2', 'password_2'] });
    expect(answer.files).toEqual([]);
    expect(t.engine.store.library.keptFiles.has(hashOf(CSV))).toBe(false);
  });

  it('kept: the credentials kept as an upload is, named as the scenario names them; the scenario validates with them', async () => {
    const answer = await importHar(har(2), true);
    expect(answer.files).toEqual([{ name: 'credentials.csv', hash: hashOf(CSV), bytes: CSV.length, format: 'csv', rows: 1, columns: answer.credentials!.columns }]);
    expect(t.engine.store.library.keptFiles.content(hashOf(CSV))?.toString('utf8')).toBe(CSV);
    expect(JSON.parse(answer.text)).toMatchObject({ data: [{ name: 'credentials', file: 'credentials.csv' }] });
    const files = answer.files.map(({ name, hash }) => ({ name, hash }));
    expect((await t.engine.handlers['scenarios:validate']({ text: answer.text, quick: false, files })).ok).toBe(true);
  });

  it('a recording longer than a journey holds: one line, nothing kept', async () => {
    await expect(importHar(har(300), true)).rejects.toThrow(/^300 requests to 127\.0\.0\.1:9; a journey holds at most 256 steps/);
  });

  it("a curl command as a new scenario aimed at the command's own server, its -u moved out and kept", async () => {
    const request = apiContract['requests:import-curl'].request.parse({ command: `curl -u ada:${SECRET} http://127.0.0.1:7/api/me`, keep: true });
    const answer = await t.engine.handlers['requests:import-curl'](request);
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(JSON.parse(answer.text)).toMatchObject({ servers: [{ architecture: 'external', url: 'http://127.0.0.1:7' }], phases: [{ flow: true, requests: [{ name: 'GET /api/me', headers: { Authorization: 'Basic {{data.basic_auth}}' } }] }] });
    expect(t.engine.store.library.keptFiles.content(answer.files[0]!.hash)?.toString('utf8')).toBe(`basic_auth\n${Buffer.from(`ada:${SECRET}`).toString('base64')}\n`);
  });
});
