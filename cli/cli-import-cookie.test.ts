import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDir } from '../db/test-support/temp-store.js';
import { HarRecorder } from '../engine/import-requests/test-support/har-recorder.js';
import { COOKIE_PASSWORD, startCookieLoginServer, type CookieLoginServer } from './test-support/cookie-login-server.js';
import { runCli } from './test-support/cli-process.js';
import type { RunJson } from './test-support/run-json.js';

// A session cookie correlated (issue 39): a login answering Set-Cookie: sid=<fresh>, then a page
// that needs it. The import extracts the first cookie of Set-Cookie with a pattern on the header's
// value and sends {{vars.sid}} in the Cookie pair it was recorded in; a replay against a fresh start
// of the service (which knows no recorded session) is answered without error. Build first.

const tmp = useTempDir('file');
let fresh: CookieLoginServer;
let recordedSid = '';
// asynchronous: the fixture service lives in this test's event loop
const cli = (args: string[]) => runCli(args, { cwd: tmp.dir, deadlineMs: 50_000 });

beforeAll(async () => {
  const recorded = await startCookieLoginServer();
  try {
    const rec = new HarRecorder();
    await rec.send('POST', `${recorded.url}/login`, { 'Content-Type': 'application/x-www-form-urlencoded' }, `user=ada&password=${COOKIE_PASSWORD}`);
    const cookie = (rec.har().log.entries[0] as { response: { headers: { name: string; value: string }[] } }).response.headers.find((h) => h.name === 'set-cookie')!.value;
    recordedSid = /^sid=([^;]*)/.exec(cookie)![1]!;
    const account = await rec.send('GET', `${recorded.url}/account`, { Cookie: `sid=${recordedSid}; theme=dark` });
    expect(account.status).toBe(200);
    rec.write(join(tmp.dir, 'cookie.har'));
  } finally {
    await recorded.close();
  }
  fresh = await startCookieLoginServer();
});
afterAll(async () => {
  await fresh?.close();
});

describe('a session cookie from Set-Cookie, correlated', () => {
  it("imported: the login extracts Set-Cookie's first cookie by a pattern, the page sends it back; replayed on a fresh start without error", async () => {
    const out = await cli(['import-har', 'cookie.har', '--out', 'cookie.json']);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/^correlation c1 accepted: \{\{vars\.sid\}\} = "[0-9a-f]{8}…" \(24 chars\) from step 1 POST \/login, cookie sid of header set-cookie; replaces step 2 headers\.Cookie$/m);
    const doc = JSON.parse(readFileSync(join(tmp.dir, 'cookie.json'), 'utf8')) as { phases: { requests: { extract?: unknown; headers?: Record<string, string>; body?: string }[] }[] };
    const [login, account] = doc.phases[0]!.requests;
    expect(login!.extract).toEqual({ var: 'sid', from: 'header', name: 'set-cookie', pattern: '^sid=([^;]*)' });
    expect(login!.body).toBe('user={{data.user}}&password={{data.password}}');
    expect(account!.headers!.Cookie).toBe('sid={{vars.sid}}; theme={{data.cookie_theme}}');
    expect(JSON.stringify(doc)).not.toContain(recordedSid);

    const run = await cli(['run', 'cookie.json', '--json', '--db', join(tmp.dir, 'runs.db'), '--set', `servers[0].url=${fresh.url}`]);
    expect(run.status, run.stderr).toBe(0);
    const phase = (JSON.parse(run.stdout) as RunJson).servers[0]!.phases[0]!;
    expect(phase.endpoints.map((e) => [e.name, e.count, Object.values(e.errors).reduce((n, x) => n + x, 0)])).toEqual([
      ['POST /login', 3, 0],
      ['GET /account', 3, 0],
    ]);
  });
});
