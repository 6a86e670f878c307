import { afterEach, describe, expect, it } from 'vitest';
import type { RequestTemplate } from '../../../contract/scenario.js';
import { startServer, stopAll, type RunningServer } from '../../../servers/test-support/servers.js';
import { closed, collect, rampingUsers, req } from '../test-support/phases.js';

// Journeys (contract/flow.ts) in the real driver worker against the real bundled API (servers/: a
// single-process server from dist/; build first). The API only answers items to a token it issued,
// so an item answered 200 is a token extracted from this user's login and sent back.

let server: RunningServer;
afterEach(stopAll);

const login = (password = 'secret', extract: RequestTemplate['extract'] = { var: 'token', from: 'json', path: 'token' }): RequestTemplate =>
  req('/api/login', { name: 'login', method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"user":"u{{user}}","password":"${password}"}`, extract });
const item = req('/api/items/{{randomInt 1 1000}}', { name: 'item', headers: { Authorization: 'Bearer {{vars.token}}' } });
const me = req('/api/me', { name: 'me', headers: { Authorization: 'Bearer {{vars.token}}' }, extract: { var: 'who', from: 'json', path: 'user' } });

/** The one phase's result; a driver that failed says why. */
function phaseOf(result: Awaited<ReturnType<typeof collect>>['result']) {
  expect(result.failure).toBeUndefined();
  return result.phases[0]!.result;
}
const errorsOf = (errors: Partial<Record<string, number>>): Record<string, number> => Object.fromEntries(Object.entries(errors).filter(([, n]) => (n ?? 0) > 0)) as Record<string, number>;
const countsByStep = (rows: { templateIdx: number }[], steps: number): number[] => Array.from({ length: steps }, (_, i) => rows.filter((r) => r.templateIdx === i).length);

describe('a flow run by the driver against the bundled API', () => {
  it('each user logs in, and its token gets it items and itself: steps in order, none failing', async () => {
    server = await startServer('single');
    const { result, rows } = await collect(server.url, [closed(3, { count: 60, flow: true, requests: [login(), item, me] })]);
    const phase = phaseOf(result);
    expect([...new Set(rows.map((r) => r.status))]).toEqual([200]);
    expect(phase.count).toBe(60);
    expect(errorsOf(phase.errors)).toEqual({});
    expect(phase.ok).toBe(60);
    // in order: every user starts with its login, so no step is ahead of the one before it
    const [logins, items, mes] = countsByStep(rows, 3);
    expect(logins! + items! + mes!).toBe(60);
    expect(logins).toBeGreaterThanOrEqual(items!);
    expect(items).toBeGreaterThanOrEqual(mes!);
    expect(mes).toBeGreaterThan(0);
  });

  it('a failed extraction is an extract error of its step, and the user starts again: the next step is never sent', async () => {
    server = await startServer('single');
    const noToken = login('secret', { var: 'token', from: 'json', path: 'data.token' });
    const { result, rows } = await collect(server.url, [closed(2, { count: 20, flow: true, requests: [noToken, item] })]);
    const phase = phaseOf(result);
    expect(phase.count).toBe(20);
    expect(errorsOf(phase.errors)).toEqual({ extract: 20 });
    expect(countsByStep(rows, 2)).toEqual([20, 0]);
    // the login itself was answered
    expect(rows.every((r) => r.status === 200)).toBe(true);
  });

  it('a wrong password: the login is an http error (401), no token, the user logs in again', async () => {
    server = await startServer('single');
    const { result, rows } = await collect(server.url, [closed(2, { count: 12, flow: true, requests: [login('guess'), item] })]);
    expect(errorsOf(phaseOf(result).errors)).toEqual({ http: 12 });
    expect(countsByStep(rows, 2)).toEqual([12, 0]);
    expect(rows.every((r) => r.status === 401)).toBe(true);
  });

  it('extracts a header and a regex group, and a value extracted once is sent by a later step', async () => {
    server = await startServer('single');
    const byRegex = login('secret', { var: 'token', from: 'regex', pattern: '"token":"([^"]+)"' });
    const header = req('/api/me', { name: 'type', headers: { Authorization: 'Bearer {{vars.token}}' }, extract: { var: 'type', from: 'header', name: 'Content-Type' } });
    // the echo answers what it was sent: the header's value must be in the body it echoes
    const echo = req('/api/echo', { name: 'echo', method: 'POST', body: '{"type":"{{vars.type}}"}', expect: { bodyIncludes: '"type":"application/json"' } });
    const { result, rows } = await collect(server.url, [closed(2, { count: 18, flow: true, requests: [byRegex, header, echo] })]);
    const phase = phaseOf(result);
    expect(errorsOf(phase.errors)).toEqual({});
    expect(phase.ok).toBe(18);
    // each user's steps in order (how the 18 requests split between the two users is the machine's)
    const [first, second, third] = countsByStep(rows, 3);
    expect(first! >= second! && second! >= third! && third! > 0).toBe(true);
  });

  it('a ramping-users phase runs the flow too: users that join log in first', async () => {
    server = await startServer('single');
    const phase = rampingUsers([{ durationMs: 400, target: 3 }, { durationMs: 400, target: 1 }], '/', { flow: true, requests: [login(), item] });
    const { result, rows } = await collect(server.url, [phase]);
    expect(errorsOf(phaseOf(result).errors)).toEqual({});
    const [logins, items] = countsByStep(rows, 2);
    expect(items).toBeGreaterThan(0);
    expect(logins! >= items!).toBe(true);
  });

  it('an extracted value is data where it lands: CR LF cannot add a header, / and ? cannot change the path', async () => {
    server = await startServer('single');
    const hostile = 'a\r\nX-Evil: 1/../?q=#';
    // the echo hands the hostile text back inside a JSON string; the next step sends it in a header and in the path
    const plant = req('/api/echo', { name: 'plant', method: 'POST', body: JSON.stringify({ t: hostile }), extract: { var: 't', from: 'json', path: 'body.t' } });
    // what the echo answers must hold: the value one query value, percent-encoded
    const inPath = req('/api/echo?v={{vars.t}}', { name: 'path', method: 'POST', expect: { bodyIncludes: `"path":"/api/echo?v=${encodeURIComponent(hostile)}"` } });
    // and one header line: CR LF made spaces, no X-Evil header beside it
    const inHeader = req('/api/echo', { name: 'header', method: 'POST', headers: { 'X-Token': '{{vars.t}}' }, expect: { bodyIncludes: '"headers":{"x-token":"a  X-Evil: 1/../?q=#"}' } });
    const { result, rows } = await collect(server.url, [closed(1, { count: 6, flow: true, requests: [plant, inPath, inHeader] })]);
    expect(errorsOf(phaseOf(result).errors)).toEqual({});
    expect(countsByStep(rows, 3)).toEqual([2, 2, 2]);
  });

  it("a step's thinkMs is the user's pause after it: each item is intended 300 ms after its login was done, each login when the item before it was done", async () => {
    server = await startServer('single');
    const { result, rows } = await collect(server.url, [closed(1, { count: 6, flow: true, requests: [{ ...login(), thinkMs: 300 }, item] })]);
    expect(errorsOf(phaseOf(result).errors)).toEqual({});
    const ordered = [...rows].sort((a, b) => a.intendedUs - b.intendedUs);
    expect(ordered.map((r) => r.templateIdx)).toEqual([0, 1, 0, 1, 0, 1]);
    for (let i = 1; i < ordered.length; i++) {
      const pause = ordered[i]!.templateIdx === 1 ? 300_000 : 0;
      expect(Math.abs(ordered[i]!.intendedUs - (ordered[i - 1]!.doneUs + pause))).toBeLessThan(1);
    }
  });

  it('three users whose steps pause differently each keep their own pauses: none sends before its pause ends', async () => {
    server = await startServer('single');
    // the login's pause is long and the item's none: a user just logged in must wait, one that fetched an item goes on at once
    const { result, rows } = await collect(server.url, [closed(3, { durationMs: 1500, flow: true, requests: [{ ...login(), thinkMs: 200 }, { ...item, thinkMs: 0 }, { ...me, thinkMs: 50 }] })]);
    expect(errorsOf(phaseOf(result).errors)).toEqual({});
    // every item is intended 200 ms after some login was done, every me 0 ms after some item, every later login 50 ms after some me
    const donesOf = (step: number): number[] => rows.filter((r) => r.templateIdx === step).map((r) => r.doneUs);
    const after: [number[], number][] = [
      [donesOf(2), 50_000],
      [donesOf(0), 200_000],
      [donesOf(1), 0],
    ];
    const first = Math.min(...rows.map((r) => r.intendedUs));
    for (const r of rows) {
      if (r.intendedUs === first) continue; // the users' first logins, at the phase start
      const [dones, pause] = after[r.templateIdx]!;
      expect(dones.some((d) => Math.abs(r.intendedUs - pause - d) < 1), `step ${r.templateIdx} intended at ${r.intendedUs}`).toBe(true);
    }
  });
});
