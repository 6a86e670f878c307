import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calls as apiContract } from '../../contract/api.js';
import { useTempEngine } from '../test-support/temp-engine.js';

// The UI's imports through the one typed API (requests:import-har, requests:import-curl; issue 39):
// a preview writes nothing; kept, the credentials go to a 0600 file of the data folder that the
// scenario names by its absolute path; no secret value ever travels back in the answer; a recording
// longer than a journey holds is one line and nothing is written.

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

async function importHar(text: string, keep: boolean) {
  const request = apiContract['requests:import-har'].request.parse({ text, name: 'session.har', keep });
  const answer = await t.engine.handlers['requests:import-har'](request);
  return apiContract['requests:import-har'].response.parse(answer);
}
const imports = () => join(t.dir, 'imports');

describe('requests:import-har and requests:import-curl', () => {
  it('a preview: the journey and its credentials columns, nothing written, no secret in the answer', async () => {
    const answer = await importHar(har(2), false);
    expect(answer.credentials!.columns).toEqual(['cookie_sid', 'user', 'password', 'cookie_sid_2', 'password_2']);
    expect(dirname(answer.credentials!.file)).toBe(imports());
    expect(existsSync(imports())).toBe(false);
    expect(JSON.stringify(answer)).not.toContain(SECRET);
  });

  it('kept: the credentials in a 0600 file of the data folder the scenario names; the scenario validates', async () => {
    const raw = await t.engine.handlers['requests:import-har'](apiContract['requests:import-har'].request.parse({ text: har(2), name: 'session.har', keep: true }));
    expect(JSON.stringify(raw)).not.toContain(SECRET);
    const answer = apiContract['requests:import-har'].response.parse(raw);
    const file = answer.credentials!.file;
    expect(readdirSync(imports())).toEqual([file.slice(imports().length + 1)]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(`cookie_sid,user,password,cookie_sid_2,password_2\n${SECRET}-0,ada,${SECRET}-0,${SECRET}-1,${SECRET}-1\n`);
    expect(JSON.parse(answer.text)).toMatchObject({ data: [{ name: 'credentials', file }] });
    expect((await t.engine.handlers['scenarios:validate']({ text: answer.text, quick: false })).ok).toBe(true);
  });

  it('a recording longer than a journey holds: one line, nothing written', async () => {
    await expect(importHar(har(300), true)).rejects.toThrow(/^300 requests to 127\.0\.0\.1:9; a journey holds at most 256 steps/);
    expect(existsSync(imports())).toBe(false);
  });

  it("a curl command as a new scenario aimed at the command's own server, its -u moved out", async () => {
    const request = apiContract['requests:import-curl'].request.parse({ command: `curl -u ada:${SECRET} http://127.0.0.1:7/api/me`, keep: true });
    const answer = await t.engine.handlers['requests:import-curl'](request);
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(JSON.parse(answer.text)).toMatchObject({ servers: [{ architecture: 'external', url: 'http://127.0.0.1:7' }], phases: [{ flow: true, requests: [{ name: 'GET /api/me', headers: { Authorization: 'Basic {{data.basic_auth}}' } }] }] });
    expect(readFileSync(answer.credentials!.file, 'utf8')).toBe(`basic_auth\n${Buffer.from(`ada:${SECRET}`).toString('base64')}\n`);
  });
});
