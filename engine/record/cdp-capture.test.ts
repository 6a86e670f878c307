import { describe, expect, it } from 'vitest';
import { CdpCapture, type CdpPort } from './cdp-capture.js';
import { MAX_KEPT_BODY_BYTES, RecordingMeter, type RecordingBounds } from './recording-bounds.js';

// What a recording keeps of a page's traffic (the DevTools protocol's Network events, the one capture
// of the CLI, the browser host and the desktop window), fed events as a page can make Chromium send
// them: without end (10,000 requests), with huge bodies, out of order, malformed, or from a browser
// that went away before a body was asked for. What holds: the recording keeps at most its bounds and
// says which it met, once; bodies past 1 MiB are not asked for; nothing malformed throws; entries keep
// the order the requests were sent in.

const BIG: RecordingBounds = { requests: 2_000, bytes: 32 * 1024 * 1024, durationMs: 60_000 };

interface Fake {
  capture: CdpCapture;
  emit(method: string, params: unknown): void;
  asked: string[];
  crossed: string[];
}

/** A capture attached to a port that answers bodies from `bodies` (by request id) and records what it was asked. */
async function fakeCapture(bounds = BIG, bodies: Record<string, string | Error> = {}): Promise<Fake> {
  const asked: string[] = [];
  const crossed: string[] = [];
  const capture = new CdpCapture(new RecordingMeter(bounds, 0), () => undefined, (note) => crossed.push(note));
  const port: CdpPort = {
    send: async (method, params) => {
      const id = String(params?.requestId ?? '');
      asked.push(`${method} ${id}`.trim());
      if (method !== 'Network.getResponseBody') return {};
      const body = bodies[id];
      if (body instanceof Error) throw body;
      return { body: body ?? '', base64Encoded: false };
    },
  };
  let handler: (method: string, params: unknown) => void = () => undefined;
  await capture.attach(port, (h) => (handler = h));
  return { capture, emit: (m, p) => handler(m, p), asked, crossed };
}

let clock = 1_000;
function sent(f: Fake, id: string, url: string, more: Record<string, unknown> = {}): void {
  clock += 0.01;
  f.emit('Network.requestWillBeSent', { requestId: id, request: { url, method: 'GET', headers: { accept: '*/*' } }, timestamp: clock, wallTime: 1_700_000_000 + clock, type: 'Fetch', ...more });
}
function answered(f: Fake, id: string, bytes: number, mimeType = 'application/json'): void {
  f.emit('Network.responseReceived', { requestId: id, response: { status: 200, statusText: 'OK', headers: { 'content-type': mimeType }, mimeType } });
  f.emit('Network.dataReceived', { requestId: id, dataLength: bytes });
  f.emit('Network.loadingFinished', { requestId: id, timestamp: clock + 0.005 });
}

describe('a recording captures a page through CDP', () => {
  it('a page that sends 10,000 requests: the first 2,000 are kept, the bound is said once, nothing after is held', async () => {
    const f = await fakeCapture();
    for (let i = 0; i < 10_000; i++) sent(f, `r${i}`, `http://127.0.0.1:3000/api/ping?i=${i}`);
    expect(f.capture.entries()).toHaveLength(2_000);
    expect(f.capture.entries().at(-1)!.request.url).toBe('http://127.0.0.1:3000/api/ping?i=1999');
    expect(f.crossed).toEqual(['the recording stopped at its bound of 2,000 requests: the journey is made of the requests before it']);
    // answers to requests past the bound ask the browser for nothing
    for (let i = 2_000; i < 2_100; i++) answered(f, `r${i}`, 10);
    expect(f.asked.filter((a) => a.startsWith('Network.getResponseBody'))).toEqual([]);
  });

  it('bodies past their bound: one over 1 MiB is not asked for, and the total stops the recording at 32 MiB', async () => {
    const f = await fakeCapture({ ...BIG, bytes: 1024 }, { small: 'x'.repeat(600), second: 'y'.repeat(600) });
    sent(f, 'huge', 'http://127.0.0.1:3000/api/export');
    answered(f, 'huge', MAX_KEPT_BODY_BYTES + 1);
    sent(f, 'small', 'http://127.0.0.1:3000/api/a');
    answered(f, 'small', 600);
    sent(f, 'second', 'http://127.0.0.1:3000/api/b');
    answered(f, 'second', 600);
    await f.capture.settle(5_000);
    expect(f.asked).not.toContain('Network.getResponseBody huge');
    const [huge, small, second] = f.capture.entries();
    expect(huge!.response.content.text).toBeUndefined();
    expect(small!.response.content.text).toBe('x'.repeat(600));
    // the second would pass 1,024 bytes of bodies: not kept, and the recording stops
    expect(second!.response.content.text).toBeUndefined();
    expect(f.crossed[0]).toBe('the recording stopped at its bound of 1024 bytes of request and response bodies: the journey is made of the requests before it');
    expect(f.capture.notes()).toContain('1 response or request bod(ies) over 1 MiB were captured without their text');
  });

  it('static assets (images, scripts, styles, fonts) are captured without asking for their bodies', async () => {
    const f = await fakeCapture();
    sent(f, 'img', 'http://127.0.0.1:3000/logo.png', { type: 'Image' });
    answered(f, 'img', 100, 'image/png');
    sent(f, 'js', 'http://127.0.0.1:3000/app.js', { type: 'Script' });
    answered(f, 'js', 100, 'text/javascript');
    await f.capture.settle(5_000);
    expect(f.asked.filter((a) => a.startsWith('Network.getResponseBody'))).toEqual([]);
    expect(f.capture.entries().map((e) => e._resourceType)).toEqual(['image', 'script']);
  });

  it('malformed and unknown events, and events for requests never seen: ignored, nothing thrown, nothing kept', async () => {
    const f = await fakeCapture();
    for (const params of [null, 7, 'x', [], {}, { requestId: 5 }, { requestId: 'a', request: { url: 1 } }, { requestId: 'a', request: { url: 'u', method: 'GET', headers: { a: 1 } }, timestamp: 1, wallTime: 1 }]) {
      f.emit('Network.requestWillBeSent', params);
      f.emit('Network.responseReceived', params);
      f.emit('Network.loadingFinished', params);
      f.emit('Network.someFutureEvent', params);
    }
    answered(f, 'never-sent', 10);
    expect(f.capture.entries()).toEqual([]);
    expect(f.crossed).toEqual([]);
  });

  it('the browser went away before a body was asked for: the request is kept without it and stopping does not wait', async () => {
    const f = await fakeCapture(BIG, { gone: new Error('Target closed') });
    sent(f, 'gone', 'http://127.0.0.1:3000/api/items');
    answered(f, 'gone', 20);
    await f.capture.settle(5_000);
    expect(f.capture.entries()[0]).toMatchObject({ request: { url: 'http://127.0.0.1:3000/api/items' }, response: { status: 200 } });
    expect(f.capture.entries()[0]!.response.content.text).toBeUndefined();
  });

  it('a redirect keeps one request id: each hop is its own entry, in order, the first with its 3xx and where it went', async () => {
    const f = await fakeCapture(BIG, { r: '{"ok":true}' });
    sent(f, 'r', 'http://127.0.0.1:3000/login');
    sent(f, 'r', 'http://127.0.0.1:3000/home', { redirectResponse: { status: 302, statusText: 'Found', headers: { location: '/home' }, mimeType: '' } });
    answered(f, 'r', 11);
    await f.capture.settle(5_000);
    expect(f.capture.entries().map((e) => [e.request.url, e.response.status, e.response.redirectURL])).toEqual([
      ['http://127.0.0.1:3000/login', 302, 'http://127.0.0.1:3000/home'],
      ['http://127.0.0.1:3000/home', 200, ''],
    ]);
  });

  it('the headers as sent on the wire (ExtraInfo, Cookie included) win, whichever event comes first', async () => {
    const f = await fakeCapture();
    f.emit('Network.requestWillBeSentExtraInfo', { requestId: 'early', headers: { cookie: 'sid=1', accept: '*/*' } });
    sent(f, 'early', 'http://127.0.0.1:3000/api/a');
    sent(f, 'late', 'http://127.0.0.1:3000/api/b');
    f.emit('Network.requestWillBeSentExtraInfo', { requestId: 'late', headers: { cookie: 'sid=2', 'set-twice': 'a\nb' } });
    expect(f.capture.entries().map((e) => e.request.headers)).toEqual([
      [{ name: 'cookie', value: 'sid=1' }, { name: 'accept', value: '*/*' }],
      [{ name: 'cookie', value: 'sid=2' }, { name: 'set-twice', value: 'a' }, { name: 'set-twice', value: 'b' }],
    ]);
  });

  it('once stopped, a request still sent is not captured', async () => {
    const f = await fakeCapture();
    sent(f, 'a', 'http://127.0.0.1:3000/api/a');
    f.capture.close();
    sent(f, 'b', 'http://127.0.0.1:3000/api/b');
    expect(f.capture.entries().map((e) => e.request.url)).toEqual(['http://127.0.0.1:3000/api/a']);
  });
});

describe("a recording's time bound", () => {
  it('is met once its duration has passed, and says so; the first bound met is the one said', () => {
    const meter = new RecordingMeter({ requests: 1, bytes: 10, durationMs: 30 * 60_000 }, 1_000);
    expect(meter.expired(1_000 + 30 * 60_000 - 1)).toBe(false);
    expect(meter.expired(1_000 + 30 * 60_000)).toBe(true);
    expect(meter.crossed).toBe('the recording stopped at its bound of 30 min: the journey is made of what was captured until then');
    expect(meter.request()).toBe(false);
    expect(meter.crossed).toContain('30 min');
  });
});
