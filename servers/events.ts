import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

// Server-Sent Events (issue 41): /events answers a text/event-stream from the front itself, in
// whatever process or thread accepted the connection (the main thread of single, thread-pool and
// offload; each worker of cluster and autoscale): a stream holds a connection and a timer, never a
// worker, so thousands of idle streams beside /fib show how each architecture's front copes (on
// single, a long /fib stalls every stream's events: their gaps show it).
//   /events?n=100&gapMs=10&size=32&firstMs=0
//     n: events, then the stream ends (0: until the client leaves, at most MAX_EVENTS);
//     gapMs: between events; size: bytes of each event's data; firstMs: before the first event
// A write the client does not take (its socket full) waits for 'drain': memory stays bounded.

export const EVENTS_PATH = '/events';
export const MAX_EVENTS = 1_000_000;
export const MAX_EVENT_GAP_MS = 60_000;
export const MAX_EVENT_SIZE = 64 * 1024;

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

export interface EventsSpec {
  n: number;
  gapMs: number;
  size: number;
  firstMs: number;
}

const LIMITS: Record<keyof EventsSpec, [number, number]> = { n: [0, MAX_EVENTS], gapMs: [0, MAX_EVENT_GAP_MS], size: [0, MAX_EVENT_SIZE], firstMs: [0, MAX_EVENT_GAP_MS] };
const DEFAULTS: EventsSpec = { n: 10, gapMs: 100, size: 16, firstMs: 0 };

/** The stream a query asks for, or a one-line reason it is refused. */
export function parseEvents(params: URLSearchParams): EventsSpec | string {
  const spec = { ...DEFAULTS };
  for (const [key, raw] of params) {
    if (!(key in LIMITS)) return `unknown parameter '${key.slice(0, 40)}' (allowed: ${Object.keys(LIMITS).join(', ')})`;
    const [min, max] = LIMITS[key as keyof EventsSpec];
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) return `${key} must be a whole number between ${min} and ${max}, got '${raw.slice(0, 40)}'`;
    spec[key as keyof EventsSpec] = Number(raw);
  }
  return spec;
}

/** Streams the events; ends at n, or when the client leaves. */
export function serveEvents(req: Request, res: Response, spec: EventsSpec): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  // node:http2's compatibility response writes as node:http's does; its union type has no common write
  const data = 'x'.repeat(spec.size);
  const limit = spec.n === 0 ? MAX_EVENTS : spec.n;
  let sent = 0;
  let timer: NodeJS.Timeout | null = null;
  let gone = false;
  const stop = (): void => {
    gone = true;
    if (timer !== null) clearTimeout(timer);
  };
  req.on('close', stop);
  res.on('close', stop);
  const next = (): void => {
    timer = null;
    if (gone) return;
    if (sent === limit) {
      res.end();
      return;
    }
    sent++;
    const room = (res as ServerResponse).write(`id: ${sent}\ndata: ${data}\n\n`);
    if (!room) res.once('drain', schedule);
    else schedule();
  };
  const schedule = (): void => {
    if (gone) return;
    timer = setTimeout(next, spec.gapMs);
  };
  timer = setTimeout(next, spec.firstMs);
}
