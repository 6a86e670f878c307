import { z } from 'zod';
import { sizeText } from './request-limits.js';

// A Server-Sent Events stream (issue 41): the template's request (method, path, headers, body) opens
// it, each event (a block ended by a blank line, RFC 8895 / WHATWG "event stream") is a message. It
// ends cleanly after `events` events or `durationMs`, or when the server ends it where neither is
// set; the server ending it before is a 'stream' error, no event within eventTimeoutMs an 'idle'
// error, an event or line over maxEventBytes a 'protocol' error (engine/driver/transport/sse.ts).

/** The largest event (or line) a template may allow: every open stream may buffer this much. */
export const MAX_SSE_EVENT_BYTES = 16 * 1024 * 1024;

export const SseStream = z.strictObject({
  protocol: z.literal('sse'),
  events: z.number().int().min(1).max(100_000_000).optional().describe('end the stream cleanly after this many events; the server ending it before is a stream error'),
  durationMs: z.number().int().min(1).max(24 * 3_600_000).optional().describe('hold the stream open this long, then close it (a clean end); the server ending it before is a stream error'),
  eventTimeoutMs: z.number().int().min(1).max(3_600_000).default(30_000).describe('the first event must come within this of the send, and each next one within this of the last: else an idle error'),
  maxEventBytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_SSE_EVENT_BYTES)
    .default(1024 * 1024)
    .describe(`an event (or one line of it) over this many bytes is a protocol error; at most ${sizeText(MAX_SSE_EVENT_BYTES)}`),
});
export type SseStream = z.output<typeof SseStream>;
