import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rootPath } from '../engine/paths.js';
import { chromiumPath } from './test-support/browser.js';
import { LOGIN_SCRIPT, startRecord, type RecordProcess } from './test-support/record-cli.js';
import { startJsonServer, type JsonServer } from './test-support/record-json-server.js';
import { startRecordSite, type RecordSite } from './test-support/record-site.js';

// `loadscope record URL` in real Chromium (headless: tests have no display) against a small site on
// 127.0.0.1, the person played by a page script (LOADSCOPE_TEST_RECORD_SCRIPT): the journey is the
// site's own requests in the order the browser sent them, whichever way the recording is stopped
// (the window closed, Enter, Ctrl-C); the stylesheet and the other origin are left out with notes; a
// page that makes 10,000 requests meets the recording's bound of 2,000 and is stopped with a note.
// The same click-through against json-server-auth (a real login service no one here wrote) records
// its login, list and item in order, with the token its login answered kept in the capture.

interface Journey {
  servers: { architecture: string; url?: string }[];
  phases: { requests: { name?: string; method?: string; path: string; body?: string }[] }[];
}
interface Har {
  log: { entries: { request: { method: string; url: string }; response: { status: number; content: { text?: string } } }[] };
}

let site: RecordSite;
let dir: string;
let recorder: RecordProcess | undefined;
const env = () => ({ LOADSCOPE_CHROMIUM: chromiumPath(), LOADSCOPE_TEST_RECORD_SCRIPT: LOGIN_SCRIPT });
const journeyAt = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Journey;
const harAt = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Har;
const stepsOf = (journey: Journey) => journey.phases.flatMap((p) => p.requests.map((r) => r.name));
/** The site's journey as the script clicks it, and what the site answered, in order. */
const STEPS = ['GET /', 'POST /api/login', 'GET /api/items', 'GET /api/items/{id}'];
const API_SEEN = ['POST /api/login', 'GET /api/items', 'GET /api/items/1'];

beforeAll(async () => {
  site = await startRecordSite();
});
afterAll(async () => {
  await site.close();
});
afterEach(async () => {
  if (recorder?.child.exitCode === null) recorder.child.kill('SIGKILL');
  recorder = undefined;
  site.apiSeen.length = 0;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});
const freshDir = () => (dir = mkdtempSync(join(tmpdir(), 'loadscope-record-')));

describe('loadscope record', () => {
  it('a person signs in and opens an item, then closes the window: the journey is the site\'s requests in the order sent, other hosts and assets left out with notes', async () => {
    freshDir();
    recorder = startRecord([`${site.url}/#close-when-done`, '--out', join(dir, 'journey.json'), '--har', join(dir, 'capture.har')], env());
    expect(await recorder.exit, recorder.stderr()).toBe(0);
    expect(site.apiSeen).toEqual(API_SEEN);
    const journey = journeyAt('journey.json');
    expect(stepsOf(journey)).toEqual(STEPS);
    expect(journey.servers).toEqual([{ architecture: 'external', label: new URL(site.url).host, url: site.url }]);
    expect(recorder.stderr()).toContain('stopping: the browser window was closed');
    expect(recorder.stderr()).toContain('note: left out 1 static asset request(s)');
    expect(recorder.stderr()).toContain(`note: left out 1 request(s) to hosts other than ${new URL(site.url).host}`);
    expect(recorder.stderr()).toContain('note: no display');
    // the capture keeps the responses a later request may need (the login's token)
    const entries = harAt('capture.har').log.entries;
    const login = entries.find((e) => e.request.url.endsWith('/api/login'));
    expect(login?.response).toMatchObject({ status: 200, content: { text: expect.stringContaining('"accessToken":"tok-4f1c9a"') } });
    expect(entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual(['GET /', 'GET /site.css', 'POST /api/login', 'GET /ping', 'GET /api/items', 'GET /api/items/1']);
  });

  it('Chromium quits (as it does when a person closes its last window): nothing captured is lost, the journey is written', async () => {
    freshDir();
    recorder = startRecord([`${site.url}/#quit-when-done`, '--out', join(dir, 'journey.json')], env());
    expect(await recorder.exit, recorder.stderr()).toBe(0);
    expect(recorder.stderr()).toMatch(/stopping: the browser (window )?was closed/);
    expect(stepsOf(journeyAt('journey.json'))).toEqual(STEPS);
  });

  it('Enter on the terminal stops it: the journey is written and the exit code is 0', async () => {
    freshDir();
    recorder = startRecord([site.url, '--out', join(dir, 'journey.json')], env());
    // every request of the click-through captured (the count the recorder prints as it goes)
    await recorder.said(/recording: 6 request\(s\) captured/);
    recorder.child.stdin.write('\n');
    expect(await recorder.exit, recorder.stderr()).toBe(0);
    expect(recorder.stderr()).toContain('stopping: Enter was pressed');
    expect(stepsOf(journeyAt('journey.json'))).toEqual(STEPS);
  });

  it('Ctrl-C stops it and writes the journey rather than killing the recording', async () => {
    freshDir();
    recorder = startRecord([site.url, '--out', join(dir, 'journey.json')], env());
    await recorder.said(/recording: 6 request\(s\) captured/);
    recorder.child.kill('SIGINT');
    expect(await recorder.exit, recorder.stderr()).toBe(0);
    expect(recorder.stderr()).toContain('stopping: Ctrl-C');
    expect(stepsOf(journeyAt('journey.json'))).toEqual(STEPS);
  });

  it('a page that makes 10,000 requests: the recording stops itself at 2,000 and says so; the journey stays within a scenario\'s bounds', async () => {
    freshDir();
    recorder = startRecord([`${site.url}/flood?n=10000`, '--out', join(dir, 'journey.json'), '--har', join(dir, 'capture.har')], { LOADSCOPE_CHROMIUM: chromiumPath() });
    expect(await recorder.exit, recorder.stderr()).toBe(0);
    expect(recorder.stderr()).toContain('stopping: the recording stopped at its bound of 2,000 requests');
    expect(recorder.stderr()).toContain('note: the recording stopped at its bound of 2,000 requests: the journey is made of the requests before it');
    expect(harAt('capture.har').log.entries).toHaveLength(2_000);
    const journey = journeyAt('journey.json');
    expect(journey.phases[0]!.requests.length).toBeLessThanOrEqual(256);
    expect(journey.phases[0]!.requests[0]!.name).toBe('GET /flood');
    expect(recorder.stderr()).toMatch(/note: kept the first 256 of \d+ requests to 127\.0\.0\.1:\d+: a journey holds at most 256 steps/);
  });
});

describe('loadscope record against a real login service (json-server + json-server-auth)', () => {
  let service: JsonServer;
  beforeAll(async () => {
    service = await startJsonServer();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('a person signs in (bcrypt login, a JWT back), lists the guarded items and opens one: the journey is those requests in order, and it validates', async () => {
    freshDir();
    recorder = startRecord([`${service.url}/#close-when-done`, '--out', join(dir, 'journey.json'), '--har', join(dir, 'capture.har')], env());
    expect(await recorder.exit, recorder.stderr()).toBe(0);
    expect(stepsOf(journeyAt('journey.json'))).toEqual(['GET /', 'POST /login', 'GET /items', 'GET /items/{id}']);
    const entries = harAt('capture.har').log.entries;
    const login = entries.find((e) => e.request.url.endsWith('/login'));
    expect(login?.response).toMatchObject({ status: 200, content: { text: expect.stringMatching(/"accessToken":\s*"[\w-]+\.[\w-]+\.[\w-]+"/) } });
    expect(entries.find((e) => e.request.url.endsWith('/items/1'))?.response.status).toBe(200);
    const validate = spawnSync(process.execPath, [rootPath('bin/loadscope.js'), 'validate', join(dir, 'journey.json')], { encoding: 'utf8', timeout: 60_000 });
    expect(validate.status, validate.stderr).toBe(0);
  });
});
