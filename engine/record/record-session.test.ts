import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../contract/api.js';
import type { CapturedRecording, Recording, RecordingProgress } from './recording.js';
import type { KeptFile } from '../../contract/kept-files.js';
import { recordSession, type KeepCredentials, type OpenRecording } from './record-session.js';

// The record:* calls a host answers (the browser host through the engine, the desktop through its main
// process), over a stand-in browser: what is tried is what a page's buttons can send in any order
// (two Starts, Stop with nothing open, a remote URL, a recording that ends by itself). What holds:
// one recording at a time; a refused URL opens no browser; the journey comes out of Stop; a recording
// that ended by itself says so once, and its capture is still collected by Stop; the correlations
// Stop took are reviewed and record:correlate remakes the journey from the held capture.

const HAR = (origin: string) =>
  JSON.stringify({
    log: {
      entries: [
        { request: { method: 'POST', url: `${origin}/api/login`, headers: [{ name: 'content-type', value: 'application/json' }], postData: { mimeType: 'application/json', text: '{"user":"ada","password":"pw-1234"}' } } },
        { request: { method: 'GET', url: `${origin}/api/items`, headers: [] } },
        { request: { method: 'GET', url: 'http://127.0.0.1:9/elsewhere', headers: [] } },
      ],
    },
  });

/** A login answering a token that the next two requests send back as a Bearer header, and an item id the last one uses. */
const TOKEN = 'tok-3b9e71c4d2aa';
const TOKEN_HAR = (origin: string) =>
  JSON.stringify({
    log: {
      entries: [
        {
          request: { method: 'POST', url: `${origin}/login`, headers: [{ name: 'content-type', value: 'application/json' }], postData: { mimeType: 'application/json', text: '{"email":"ada@example.test","password":"pw-1234"}' } },
          response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: `{"accessToken":"${TOKEN}"}` } },
        },
        {
          request: { method: 'POST', url: `${origin}/items`, headers: [{ name: 'authorization', value: `Bearer ${TOKEN}` }, { name: 'content-type', value: 'application/json' }], postData: { mimeType: 'application/json', text: '{"name":"pen"}' } },
          response: { status: 201, headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: '{"name":"pen","id":7}' } },
        },
        { request: { method: 'GET', url: `${origin}/items/7`, headers: [{ name: 'authorization', value: `Bearer ${TOKEN}` }] }, response: { status: 200, headers: [], content: { mimeType: 'application/json', text: '{}' } } },
      ],
    },
  });

function standIn(har: (origin: string) => string = HAR): { open: OpenRecording; opened: URL[]; stopped: number; end(why: string): void; progress(p: RecordingProgress): void } {
  const state = { opened: [] as URL[], stopped: 0, end: (_why: string) => undefined as void, progress: (_p: RecordingProgress) => undefined as void };
  const open: OpenRecording = async (url, onProgress) => {
    state.opened.push(url);
    let ended: (why: string) => void = () => undefined;
    const recording: Recording = {
      ended: new Promise((resolve) => (ended = resolve)),
      progress: () => ({ requests: 3, bytes: 7 }),
      stop: async (): Promise<CapturedRecording> => {
        state.stopped++;
        return { har: har(url.origin), notes: ['a note of the recording'], requests: 3 };
      },
    };
    state.end = (why) => ended(why);
    state.progress = onProgress;
    return { recording, headless: true, notes: ['headless'] };
  };
  return {
    open,
    get opened() {
      return state.opened;
    },
    get stopped() {
      return state.stopped;
    },
    end: (why) => state.end(why),
    progress: (p) => state.progress(p),
  };
}

/** Keeps what it is given, as library:upload-data would, and says what it kept. */
function keeper(): { keep: KeepCredentials; kept: { name: string; csv: string }[] } {
  const kept: { name: string; csv: string }[] = [];
  const keep: KeepCredentials = async (name, csv): Promise<KeptFile> => {
    kept.push({ name, csv });
    return { name, hash: '0'.repeat(64), bytes: csv.length, format: 'csv', rows: 1, columns: csv.split('\n')[0]!.split(',') };
  };
  return { keep, kept };
}
const keepNothing = keeper().keep;

describe('the record calls', () => {
  it('Start then Stop: the journey is the recorded origin\'s requests in order, with the recording\'s notes first; its credentials kept, not in the text', async () => {
    const browser = standIn();
    const { keep, kept } = keeper();
    const { handlers } = recordSession(browser.open, () => undefined, keep);
    expect(await handlers['record:start']({ url: 'http://127.0.0.1:4000/', allowRemote: false })).toEqual({ url: 'http://127.0.0.1:4000/', headless: true, notes: ['headless'] });
    const journey = await handlers['record:stop']({});
    const scenario = JSON.parse(journey.text) as { servers: { url: string }[]; phases: { requests: { name: string }[] }[] };
    expect(scenario.servers[0]!.url).toBe('http://127.0.0.1:4000');
    expect(scenario.phases[0]!.requests.map((r) => r.name)).toEqual(['POST /api/login', 'GET /api/items']);
    expect(journey.notes.slice(0, 2)).toEqual(['headless', 'a note of the recording']);
    expect(journey.notes.join(' ')).toContain('left out 1 request(s) to hosts other than 127.0.0.1:4000');
    expect(journey.requests).toBe(3);
    expect(journey.text).not.toContain('pw-1234');
    expect(kept).toEqual([{ name: 'credentials.csv', csv: 'user,password\nada,pw-1234\n' }]);
    expect(journey.files.map((f) => f.name)).toEqual(['credentials.csv']);
  });

  it('Stop then record:correlate with one correlation of two unticked: Stop took both and lists them with what each replaces; the remade journey takes only the one kept', async () => {
    const { handlers } = recordSession(standIn(TOKEN_HAR).open, () => undefined, keepNothing);
    await handlers['record:start']({ url: 'http://127.0.0.1:4000/', allowRemote: false });
    const stopped = await handlers['record:stop']({});
    expect(stopped.proposals.map((p) => [p.id, p.var, p.accepted])).toEqual([['c1', 'accessToken', true], ['c2', 'items_id', true]]);
    expect(stopped.proposals[0]!.uses.map((u) => [u.name, u.shows])).toEqual([['POST /items', 'Bearer {{vars.accessToken}}'], ['GET /items/{id}', 'Bearer {{vars.accessToken}}']]);
    expect(stopped.proposals[1]!.uses.map((u) => u.shows)).toEqual(['/items/{{vars.items_id}}']);
    expect(JSON.stringify(stopped.proposals)).not.toContain(TOKEN);

    const remade = await handlers['record:correlate']({ correlate: ['c1'] });
    const steps = (JSON.parse(remade.text) as { phases: { requests: { path: string; extract?: unknown }[] }[] }).phases[0]!.requests;
    expect(steps.map((r) => r.path)).toEqual(['/login', '/items', '/items/7']);
    expect(steps[0]!.extract).toEqual({ var: 'accessToken', from: 'json', path: 'accessToken' });
    expect(steps[1]!.extract).toBeUndefined();
    expect(remade.proposals.map((p) => p.accepted)).toEqual([true, false]);
    // the recording's notes are kept in the remade journey too
    expect(remade.notes.slice(0, 2)).toEqual(['headless', 'a note of the recording']);
  });

  it('record:correlate with no stopped recording, or after Cancel dropped it: one line, nothing made', async () => {
    const { handlers } = recordSession(standIn(TOKEN_HAR).open, () => undefined, keepNothing);
    await expect(handlers['record:correlate']({ correlate: 'all' })).rejects.toThrow('no stopped recording to correlate: record one and stop it first');
    await handlers['record:start']({ url: 'http://127.0.0.1:4000/', allowRemote: false });
    await handlers['record:stop']({});
    expect(await handlers['record:cancel']({})).toEqual({ cancelled: false });
    await expect(handlers['record:correlate']({ correlate: 'none' })).rejects.toThrow('no stopped recording to correlate');
  });

  it('a second Start while one is open: refused, and no second browser opens', async () => {
    const browser = standIn();
    const { handlers } = recordSession(browser.open, () => undefined, keepNothing);
    await handlers['record:start']({ url: 'http://127.0.0.1:4000/', allowRemote: false });
    await expect(handlers['record:start']({ url: 'http://127.0.0.1:4001/', allowRemote: false })).rejects.toThrow('a recording is already open: stop or cancel it first');
    expect(browser.opened).toHaveLength(1);
  });

  it('a URL outside this machine without consent: refused before any browser opens', async () => {
    const browser = standIn();
    const { handlers } = recordSession(browser.open, () => undefined, keepNothing);
    await expect(handlers['record:start']({ url: 'http://192.168.1.20/', allowRemote: false })).rejects.toMatchObject({ code: 'LS_ERR_NEEDS_CONSENT' });
    expect(browser.opened).toEqual([]);
  });

  it('Stop or Cancel with nothing open: one line, or false; nothing else happens', async () => {
    const { handlers } = recordSession(standIn().open, () => undefined, keepNothing);
    await expect(handlers['record:stop']({})).rejects.toThrow('no recording is open: start one first');
    expect(await handlers['record:cancel']({})).toEqual({ cancelled: false });
  });

  it('the window closed: one "ended" event with why, and Stop still collects the journey', async () => {
    const browser = standIn();
    const events: EngineEvent[] = [];
    const { handlers } = recordSession(browser.open, (e) => events.push(e), keepNothing);
    await handlers['record:start']({ url: 'http://127.0.0.1:4000/', allowRemote: false });
    browser.end('the browser window was closed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([{ event: 'record:progress', payload: { requests: 3, bytes: 7, state: 'ended', reason: 'the browser window was closed' } }]);
    expect((await handlers['record:stop']({})).requests).toBe(3);
  });

  it('closing the host with a recording open: its browser is closed, nothing kept', async () => {
    const browser = standIn();
    const session = recordSession(browser.open, () => undefined, keepNothing);
    await session.handlers['record:start']({ url: 'http://127.0.0.1:4000/', allowRemote: false });
    await session.close();
    expect(browser.stopped).toBe(1);
    await expect(session.handlers['record:stop']({})).rejects.toThrow('no recording is open');
  });
});
