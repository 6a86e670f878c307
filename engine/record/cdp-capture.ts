import { z } from 'zod';
import { MAX_KEPT_BODY_BYTES, type RecordingMeter } from './recording-bounds.js';

// A recording's traffic as HAR entries, made from the Chrome DevTools Protocol's Network events. One
// capture for both hosts that record: Chromium driven by playwright-core (the CLI and the browser
// host, through a CDP session per page) and the desktop's Electron window (its webContents.debugger).
// Entries live in this process as they happen, in the order the browser sent the requests, so a
// browser that quits (the person closed its window) loses nothing that was captured; playwright's
// recordHar writes its file only on an orderly context.close(), and a Chromium that quits first
// left no file at all. Response bodies are fetched once each has finished loading, unless they are
// a static asset's (images, scripts, fonts, media, styles: the importer leaves those out) or larger
// than MAX_KEPT_BODY_BYTES; every body kept counts against the recording's bounds.

/** The part of a CDP session the capture uses (playwright's CDPSession and Electron's Debugger both fit through a small adapter). */
export interface CdpPort {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

/** The Network events the capture listens to; an adapter subscribes to these names and hands each to `event`. */
export const CDP_NETWORK_EVENTS = [
  'Network.requestWillBeSent',
  'Network.requestWillBeSentExtraInfo',
  'Network.responseReceived',
  'Network.dataReceived',
  'Network.loadingFinished',
  'Network.loadingFailed',
] as const;

/** Chromium's resource types whose bodies are not kept (what the importer leaves out as static assets). */
const ASSET_TYPES = new Set(['Image', 'Media', 'Font', 'Stylesheet', 'Script', 'Manifest', 'TextTrack']);
/** What the browser may buffer for getResponseBody: the bodies kept, with room for what is skipped. */
const BROWSER_BUFFER = { maxTotalBufferSize: 64 * 1024 * 1024, maxResourceBufferSize: MAX_KEPT_BODY_BYTES * 2 };

const Headers = z.record(z.string(), z.string());
const Response = z.object({ status: z.number(), statusText: z.string().default(''), headers: Headers, mimeType: z.string().default(''), protocol: z.string().optional() });
const WillBeSent = z.object({
  requestId: z.string(),
  request: z.object({ url: z.string(), method: z.string(), headers: Headers, postData: z.string().optional(), hasPostData: z.boolean().optional() }),
  timestamp: z.number(),
  wallTime: z.number(),
  type: z.string().optional(),
  redirectResponse: Response.optional(),
});
const ExtraInfo = z.object({ requestId: z.string(), headers: Headers });
const Received = z.object({ requestId: z.string(), response: Response });
const DataReceived = z.object({ requestId: z.string(), dataLength: z.number() });
const Finished = z.object({ requestId: z.string(), timestamp: z.number() });
const Failed = z.object({ requestId: z.string(), timestamp: z.number(), errorText: z.string().default('') });
const Body = z.object({ body: z.string(), base64Encoded: z.boolean() });
const PostData = z.object({ postData: z.string() });

interface HarHeader {
  name: string;
  value: string;
}

/** A HAR 1.2 entry as this capture writes it (the fields import-har reads, and the response for correlation). */
export interface CapturedEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: HarHeader[]; queryString: HarHeader[]; cookies: never[]; headersSize: -1; bodySize: number; postData?: { mimeType: string; text: string } };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: never[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** Chromium's resource type, lower case as in DevTools' HAR ("fetch", "document", "image"...) */
  _resourceType: string;
}

interface Live {
  entry: CapturedEntry;
  type: string;
  startedAt: number;
  /** decoded body bytes seen so far (dataReceived), to skip a large body before asking for it */
  received: number;
  port: CdpPort;
}

/** CDP gives a repeated header as one value with the values on separate lines. */
function harHeaders(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).flatMap(([name, value]) => value.split('\n').map((v) => ({ name, value: v })));
}

function headerValue(headers: readonly HarHeader[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/**
 * The capture of one recording: `port(...)` attaches a CDP session (a page, or the Electron window),
 * `event(...)` takes its Network events; `entries()` is the HAR's entries in the order requests were
 * sent. `onCrossed` is called once when a bound is met (the recorder then stops).
 */
export class CdpCapture {
  private readonly list: CapturedEntry[] = [];
  private readonly live = new Map<string, Live>();
  /** ExtraInfo that came before its requestWillBeSent (the order is not guaranteed) */
  private readonly earlyHeaders = new Map<string, Record<string, string>>();
  private readonly pending = new Set<Promise<void>>();
  private bigBodies = 0;
  private ports = 0;
  private closed = false;
  private saidCrossed = false;

  constructor(
    private readonly meter: RecordingMeter,
    private readonly onChange: () => void,
    private readonly onCrossed: (note: string) => void,
  ) {}

  /**
   * Takes a session's events: `subscribe` gets the handler to call with each of CDP_NETWORK_EVENTS,
   * and is called before the Network domain is enabled, so no event of the page is missed.
   */
  async attach(port: CdpPort, subscribe: (handler: (method: string, params: unknown) => void) => void): Promise<void> {
    const key = `${++this.ports}:`;
    // a session's request ids are its own: keyed by session so two pages cannot mix their entries
    subscribe((method, params) => this.event(port, key, method, params));
    await port.send('Network.enable', BROWSER_BUFFER);
  }

  /** No request after this is captured (bodies already asked for may still arrive until settle). */
  close(): void {
    this.closed = true;
  }

  entries(): readonly CapturedEntry[] {
    return this.list;
  }

  /** The capture as a HAR 1.2 file's text (what import-har reads). */
  har(creator: { name: string; version: string }): string {
    return `${JSON.stringify({ log: { version: '1.2', creator, pages: [], entries: this.list } }, null, 1)}\n`;
  }

  /** One line each: what the capture could not keep. */
  notes(): string[] {
    const notes: string[] = [];
    if (this.bigBodies > 0) notes.push(`${this.bigBodies} response or request bod(ies) over ${MAX_KEPT_BODY_BYTES / 1024 / 1024} MiB were captured without their text`);
    const unanswered = this.list.filter((e) => e.response.status === 0).length;
    if (unanswered > 0) notes.push(`${unanswered} request(s) had no answer when the recording stopped (or failed)`);
    return notes;
  }

  /** Waits for the bodies still being fetched, at most `ms` (a browser that went away answers nothing). */
  async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.pending]), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private event(port: CdpPort, key: string, method: string, params: unknown): void {
    switch (method) {
      case 'Network.requestWillBeSent': {
        const p = WillBeSent.safeParse(params);
        if (p.success) this.willBeSent(port, key, p.data);
        return;
      }
      case 'Network.requestWillBeSentExtraInfo': {
        const p = ExtraInfo.safeParse(params);
        if (!p.success) return;
        const live = this.live.get(key + p.data.requestId);
        // the headers as sent on the wire (Cookie included): they replace what the page asked for
        if (live) live.entry.request.headers = harHeaders(p.data.headers);
        else if (this.earlyHeaders.size < 1000) this.earlyHeaders.set(key + p.data.requestId, p.data.headers);
        return;
      }
      case 'Network.responseReceived': {
        const p = Received.safeParse(params);
        const live = p.success ? this.live.get(key + p.data.requestId) : undefined;
        if (p.success && live) this.respond(live.entry, p.data.response);
        return;
      }
      case 'Network.dataReceived': {
        const p = DataReceived.safeParse(params);
        const live = p.success ? this.live.get(key + p.data.requestId) : undefined;
        if (p.success && live) live.received += p.data.dataLength;
        return;
      }
      case 'Network.loadingFinished': {
        const p = Finished.safeParse(params);
        const live = p.success ? this.live.get(key + p.data.requestId) : undefined;
        if (!p.success || !live) return;
        this.live.delete(key + p.data.requestId);
        live.entry.time = Math.max(0, (p.data.timestamp - live.startedAt) * 1000);
        live.entry.timings.wait = live.entry.time;
        this.keepBody(live, p.data.requestId);
        return;
      }
      case 'Network.loadingFailed': {
        const p = Failed.safeParse(params);
        const live = p.success ? this.live.get(key + p.data.requestId) : undefined;
        if (!p.success || !live) return;
        this.live.delete(key + p.data.requestId);
        live.entry.time = Math.max(0, (p.data.timestamp - live.startedAt) * 1000);
        live.entry.response.content.comment = p.data.errorText;
        return;
      }
    }
  }

  private willBeSent(port: CdpPort, key: string, p: z.infer<typeof WillBeSent>): void {
    const id = key + p.requestId;
    const before = this.live.get(id);
    if (before && p.redirectResponse) {
      // a redirect keeps the request id: the hop before it ends here with the 3xx
      this.respond(before.entry, p.redirectResponse);
      before.entry.response.redirectURL = p.request.url;
      this.live.delete(id);
    }
    if (this.closed) return;
    if (!this.meter.request()) {
      this.crossedOnce();
      return;
    }
    const early = this.earlyHeaders.get(id);
    this.earlyHeaders.delete(id);
    const headers = harHeaders(early ?? p.request.headers);
    const entry: CapturedEntry = {
      startedDateTime: new Date(p.wallTime * 1000).toISOString(),
      time: 0,
      request: { method: p.request.method, url: p.request.url, httpVersion: 'HTTP/1.1', headers, queryString: queryOf(p.request.url), cookies: [], headersSize: -1, bodySize: 0 },
      response: { status: 0, statusText: '', httpVersion: '', headers: [], cookies: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1 },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
      _resourceType: (p.type ?? 'Other').toLowerCase(),
    };
    this.list.push(entry);
    this.live.set(id, { entry, type: p.type ?? 'Other', startedAt: p.timestamp, received: 0, port });
    const mimeType = headerValue(headers, 'content-type') ?? '';
    if (p.request.postData !== undefined) this.keepPost(entry, mimeType, p.request.postData);
    else if (p.request.hasPostData === true) {
      // too large to come with the event: asked for separately
      this.track(
        port.send('Network.getRequestPostData', { requestId: p.requestId }).then((r) => {
          const post = PostData.safeParse(r);
          if (post.success) this.keepPost(entry, mimeType, post.data.postData);
        }),
      );
    }
    this.onChange();
  }

  private keepPost(entry: CapturedEntry, mimeType: string, text: string): void {
    const size = Buffer.byteLength(text);
    entry.request.bodySize = size;
    if (size > MAX_KEPT_BODY_BYTES) {
      this.bigBodies++;
      return;
    }
    if (!this.meter.body(size)) return this.crossedOnce();
    entry.request.postData = { mimeType, text };
    this.onChange();
  }

  private respond(entry: CapturedEntry, r: z.infer<typeof Response>): void {
    entry.response.status = r.status;
    entry.response.statusText = r.statusText;
    entry.response.httpVersion = r.protocol?.toUpperCase() ?? 'HTTP/1.1';
    entry.response.headers = harHeaders(r.headers);
    entry.response.content.mimeType = r.mimeType;
  }

  private keepBody(live: Live, requestId: string): void {
    const { entry } = live;
    entry.response.content.size = live.received;
    entry.response.bodySize = live.received;
    if (ASSET_TYPES.has(live.type) || entry.response.status === 0) return;
    if (live.received > MAX_KEPT_BODY_BYTES) {
      this.bigBodies++;
      return;
    }
    this.track(
      live.port.send('Network.getResponseBody', { requestId }).then((r) => {
        const body = Body.safeParse(r);
        if (!body.success) return;
        const size = body.data.base64Encoded ? Buffer.byteLength(body.data.body, 'base64') : Buffer.byteLength(body.data.body);
        if (size > MAX_KEPT_BODY_BYTES) {
          this.bigBodies++;
          return;
        }
        if (!this.meter.body(size)) return this.crossedOnce();
        entry.response.content.size = size;
        entry.response.content.text = body.data.body;
        if (body.data.base64Encoded) entry.response.content.encoding = 'base64';
        this.onChange();
      }),
    );
  }

  /** The recorder hears of the first bound met once, however many requests come after it. */
  private crossedOnce(): void {
    if (this.saidCrossed) return;
    this.saidCrossed = true;
    this.onCrossed(this.meter.crossed ?? 'the recording met a bound');
  }

  /** A body being fetched: a browser that went away (or a body it no longer holds) just leaves it out. */
  private track(p: Promise<void>): void {
    const settled = p.catch(() => undefined).finally(() => this.pending.delete(settled));
    this.pending.add(settled);
  }
}
