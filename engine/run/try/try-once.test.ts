import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TriedStep, TryResult } from '../../../contract/try-once.js';
import { API_PASSWORD, tokenFor } from '../../../servers/workloads/api.js';
import { dispatchCall } from '../../host/api-dispatch.js';
import { base64, loginScenario, USERS, usersCsv } from '../../library/test-support/kept-files.js';
import { useTempEngine } from '../../test-support/temp-engine.js';

// Try once against a bundled server's API (servers/workloads/api.ts), on a real engine and SQLite
// file: a login step extracts a token that the next step sends, so a 200 from /api/me is the
// extracted value used (the API checks the token). Every step's request and response are shown,
// a failure points at its step and field (a check at where it is written in expect), every kind of
// check is judged by the run's evaluator, secrets never appear in what the try returns, and a try
// stores no run.

const temp = useTempEngine('try-once');

const login = (user: string, extra: object = {}) => ({
  name: 'login',
  method: 'POST' as const,
  path: '/api/login',
  headers: { 'content-type': 'application/json' },
  body: `{"user":"${user}","password":"${API_PASSWORD}"}`,
  extract: { var: 'token', from: 'json' as const, path: 'token' },
  ...extra,
});

const journey = (requests: object[]) => ({
  name: 'try-journey',
  servers: [{ architecture: 'single' }],
  phases: [{ executor: 'closed', name: 'journey', users: 4, count: 100, flow: true, requests }],
});

const tryText = (scenario: object) => temp.engine.handlers['scenarios:try']({ scenario: { text: JSON.stringify(scenario) }, quick: false, set: {}, server: 0 });

const okOf = (s: TriedStep) => s.notSent === null && s.error === null;

describe('try once', () => {
  it('a two-step journey on a bundled server: each request and response shown, the token step 1 extracts sent by step 2', async () => {
    const result = await tryText(journey([login('ada'), { name: 'me', path: '/api/me', headers: { Authorization: 'Bearer {{vars.token}}' }, expect: { status: 200, bodyIncludes: '"user":"ada"' } }]));
    expect(result.passed, JSON.stringify(result.steps.map((s) => s.error ?? s.notSent))).toBe(true);
    expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const [first, second] = result.steps;
    expect(result.steps.map(okOf)).toEqual([true, true]);

    // step 1: what went out and what came back
    expect(first).toMatchObject({ phaseIndex: 0, stepIndex: 0, name: 'login', path: 'phases[0].requests[0]', failurePath: null });
    expect(first!.request).toMatchObject({ method: 'POST', url: `${result.url}/api/login` });
    expect(first!.request!.headers).toContainEqual(['content-type', 'application/json']);
    expect(first!.request!.body!.text).toContain('"user": "ada"');
    expect(first!.response!.status).toBe(200);
    expect(first!.response!.body.json).toBe(true);
    expect(first!.response!.body.text).toContain('"user": "ada"');
    expect(first!.checks).toEqual([{ name: 'status under 400', ok: true, actual: '200', path: 'phases[0].requests[0].expect.status' }]);
    expect(first!.timing!.totalMs).toBeGreaterThan(0);
    expect(first!.timing!.connectMs, 'the first request opened the connection').not.toBeNull();
    expect(first!.timing!.ttfbMs).not.toBeNull();
    // the parts shown make the total shown: what came before the request was written is said, not lost
    const { beforeSendMs, ttfbMs, transferMs, totalMs } = first!.timing!;
    expect(beforeSendMs! + ttfbMs! + transferMs!).toBeCloseTo(totalMs, 1);
    expect(first!.extracted).toMatchObject({ var: 'token' });

    // step 2: the extracted value used (the API answered 200 for ada only with ada's token), shown masked
    expect(second!.response!.status).toBe(200);
    expect(second!.checks.map((c) => [c.name, c.ok])).toEqual([['status 200', true], ['body includes "user":"ada"', true]]);
    // the editor's live check test reads the body as it came, not as shown pretty: a check on '"user":"ada"' finds it there
    expect(second!.response!.body.text).toContain('"user": "ada"');
    expect(second!.response!.checkBody).toContain('"user":"ada"');
    expect(first!.response!.checkBody).toMatch(/"token":"•••• \(\d+ chars\)"/);
    const token = tokenFor('ada');
    expect(second!.placeholders).toEqual([{ name: 'vars.token', value: `•••• (${token.length} chars)` }]);
    expect(first!.extracted!.value).toBe(`•••• (${token.length} chars)`);
    expect(second!.timing!.connectMs, 'step 2 went on the user\'s open connection').toBeNull();
  });

  it('secrets in headers, bodies, data and extracted values never appear in what a try returns', async () => {
    const dir = temp.dir;
    writeFileSync(join(dir, 'users.csv'), `user,password,apiKey\nbob,${API_PASSWORD},k-0123456789abcdef\n`);
    const scenario = {
      name: 'try-secrets',
      servers: [{ architecture: 'single' }],
      data: [{ name: 'users', file: 'users.csv' }],
      phases: [
        {
          executor: 'closed',
          users: 1,
          count: 10,
          flow: true,
          data: 'users',
          requests: [
            { ...login('{{data.user}}'), body: '{"user":"{{data.user}}","password":"{{data.password}}"}' },
            // the token under a name that says nothing, echoed back in a body and sent in a query
            { name: 'echo', method: 'POST', path: '/api/echo?access_token={{vars.token}}', headers: { 'content-type': 'application/json', 'x-api-key': '{{data.apiKey}}', Cookie: 'sid=s-0123456789' }, body: '{"t":"{{vars.token}}","note":"plain"}' },
          ],
        },
      ],
    };
    const file = join(dir, 'try-secrets.json');
    writeFileSync(file, JSON.stringify(scenario));
    const result = await temp.engine.handlers['scenarios:try']({ scenario: { text: JSON.stringify(scenario), origin: file }, quick: false, set: {}, server: 0 });
    expect(result.passed, JSON.stringify(result.steps.map((s) => s.error))).toBe(true);
    const shown = JSON.stringify(result);
    for (const secret of [tokenFor('bob'), 'k-0123456789abcdef', 's-0123456789', `"${API_PASSWORD}"`]) expect(shown, `${secret} shown`).not.toContain(secret);
    // what is not secret stays readable
    expect(result.steps[1]!.request!.body!.text).toContain('"note": "plain"');
    expect(result.steps[1]!.placeholders.find((p) => p.name === 'data.apiKey')!.value).toBe('•••• (18 chars)');
    expect(result.steps[1]!.request!.url).toMatch(/\/api\/echo\?access_token=•••• \(\d+ chars\)$/);
  });

  it('a step whose extract finds nothing: the try points at its extract path, and the next step is not sent', async () => {
    const result = await tryText(journey([login('cy', { extract: { var: 'token', from: 'json', path: 'data.token' } }), { name: 'me', path: '/api/me', headers: { Authorization: 'Bearer {{vars.token}}' } }]));
    expect(result.passed).toBe(false);
    const [first, second] = result.steps;
    expect(first!.response!.status).toBe(200);
    expect(first!.error).toEqual({ kind: 'extract', message: "the response body has no value at 'data.token' (or it is null)" });
    expect(first!.failurePath).toBe('phases[0].requests[0].extract.path');
    expect(second!.notSent).toMatch(/^step 1 \(login\) failed/);
    expect(second!.request).toBeNull();
  });

  it('a check that fails: the try points at the expect field, with what came and what was expected', async () => {
    const result = await tryText(journey([login('dee'), { name: 'me', path: '/api/me', expect: { status: 200 } }]));
    const me = result.steps[1]!;
    expect(me.response!.status).toBe(401);
    expect(me.error).toEqual({ kind: 'http', message: 'status 200 failed: 401' });
    expect(me.failurePath).toBe('phases[0].requests[1].expect.status');
  });

  it('every kind of check on a step that meets them all: the step is green, each check named as results name it and pointing where it is written', async () => {
    const checks = [
      { status: { min: 200, max: 299 } },
      { header: 'content-type', matches: 'json' },
      { bodyIncludes: '"owner":"eve"' },
      { bodyMatches: '"id":\\d+' },
      { json: 'id', equals: 3 },
      { json: 'name', type: 'string' },
      { json: 'missing', exists: false },
      { sizeAtMost: 4096 },
    ];
    const result = await tryText(journey([login('eve'), { name: 'item', path: '/api/items/3', headers: { Authorization: 'Bearer {{vars.token}}' }, expect: { status: [200, 201], checks } }]));
    expect(result.passed, JSON.stringify(result.steps.map((s) => s.error))).toBe(true);
    const item = result.steps[1]!;
    const at = 'phases[0].requests[1].expect';
    expect(item.checks.map((c) => [c.name, c.ok, c.path])).toEqual([
      ['status 200, 201', true, `${at}.status`],
      ['status 200-299', true, `${at}.checks[0]`],
      ['header content-type matches json', true, `${at}.checks[1]`],
      ['body includes "owner":"eve"', true, `${at}.checks[2]`],
      ['body matches "id":\\d+', true, `${at}.checks[3]`],
      ['json id equals 3', true, `${at}.checks[4]`],
      ['json name is string', true, `${at}.checks[5]`],
      ['json missing absent', true, `${at}.checks[6]`],
      ['size at most 4 KiB', true, `${at}.checks[7]`],
    ]);
    expect(item.checks.find((c) => c.name === 'json name is string')!.actual).toBe('string "item 3"');
  });

  it('a JSON-path check that fails: the step is a check error pointing at that check where it is written, with what it saw', async () => {
    const result = await tryText(journey([login('eve'), { name: 'item', path: '/api/items/3', headers: { Authorization: 'Bearer {{vars.token}}' }, expect: { checks: [{ json: 'id', equals: 3 }, { json: 'owner', equals: 'mallory' }] } }]));
    const item = result.steps[1]!;
    expect(result.passed).toBe(false);
    expect(item.response!.status).toBe(200);
    expect(item.error).toEqual({ kind: 'check', message: 'json owner equals "mallory" failed: "eve"' });
    expect(item.failurePath).toBe('phases[0].requests[1].expect.checks[1]');
    expect(item.checks).toEqual([
      { name: 'status under 400', ok: true, actual: '200', path: 'phases[0].requests[1].expect.status' },
      { name: 'json id equals 3', ok: true, actual: '3', path: 'phases[0].requests[1].expect.checks[0]' },
      { name: 'json owner equals "mallory"', ok: false, actual: '"eve"', path: 'phases[0].requests[1].expect.checks[1]' },
    ]);
  });

  it("an editor draft with a data file it keeps, sent as the editor sends it (through the API's parse): the try reads the kept file's first row", async () => {
    const h = temp.engine.handlers;
    const kept = await h['library:upload-data']({ name: 'users.csv', base64: base64(usersCsv()) });
    const draft = { text: JSON.stringify(loginScenario('try-kept')), files: [{ name: 'users.csv', hash: kept.hash }] };
    const result = (await dispatchCall(h, 'scenarios:try', { scenario: draft })) as TryResult;
    expect(result.passed, JSON.stringify(result.steps.map((s) => s.error))).toBe(true);
    expect(result.steps[0]!.placeholders.find((p) => p.name === 'data.user')).toEqual({ name: 'data.user', value: USERS[0] });
  });

  it('a plain phase tries each template once, in order; a try stores no run', async () => {
    const scenario = { name: 'try-plain', servers: [{ architecture: 'single' }], phases: [{ executor: 'rate', rate: 100, durationMs: 10_000, requests: [{ path: '/fib?n=5', weight: 9 }, { path: '/api/items/3', weight: 1 }] }] };
    const result = await tryText(scenario);
    expect(result.steps.map((s) => [s.name, s.response?.status])).toEqual([['GET /fib?n=5', 200], ['GET /api/items/3', 401]]);
    expect(result.steps[1]!.failurePath).toBe('phases[0].requests[1].expect.status');
    expect(await temp.engine.handlers['runs:list']({ limit: 10 })).toEqual([]);
  });
});
