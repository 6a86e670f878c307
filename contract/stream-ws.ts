import { z } from 'zod';
import { parseJsonPath } from './extract.js';
import { sizeText } from './request-limits.js';

// A WebSocket session (issue 41, part W): the template's path is upgraded (ws:// on an http target,
// wss:// with the run's TLS options on https), then its script runs: send a text, wait for a reply
// that matches (text it includes, the text at a JSON path), ping; each matched reply's round trip is
// an rtt. Then the session stays open receiving (a subscription) until durationMs after the upgrade,
// and closes: a clean end. Every wait has replyTimeoutMs (the upgrade too), the gaps after the script
// idleTimeoutMs when set; the server closing it early is a 'stream' error, a wait past its limit an
// 'idle' one, a message over maxMessageBytes or past maxMessages a 'protocol' one
// (engine/driver/transport/ws.ts, ws-session.ts).
//
//   "stream": {"protocol": "ws", "script": [{"send": "{\"id\":1}", "expect": {"path": "id", "equals": "1"}}, {"ping": true}], "durationMs": 5000}

/** The largest message a template may allow: every open session may hold one this size. */
export const MAX_WS_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Steps of one script, and the text of one send or match. */
export const MAX_WS_STEPS = 100;
export const MAX_WS_TEXT = 64 * 1024;

const stepTimeout = z.number().int().min(1).max(3_600_000).optional().describe("this step's wait; absent: the session's replyTimeoutMs");

export const WsMatch = z
  .strictObject({
    includes: z.string().min(1).max(MAX_WS_TEXT).optional().describe('the reply contains this text'),
    path: z
      .string()
      .max(200)
      .optional()
      .superRefine((p, ctx) => {
        const keys = p === undefined ? [] : parseJsonPath(p);
        if (typeof keys === 'string') ctx.addIssue({ code: 'custom', message: keys });
      })
      .describe('the reply is JSON with a value at this path (data.items[0].id)'),
    equals: z.string().max(MAX_WS_TEXT).optional().describe("the value at path, as text, is this"),
  })
  .refine((m) => m.includes !== undefined || m.path !== undefined, { message: 'an expect needs includes or path' })
  .refine((m) => m.equals === undefined || m.path !== undefined, { message: 'equals compares the value at path: give path too' });

export const WsStep = z
  .strictObject({
    send: z.string().max(MAX_WS_TEXT).optional().describe('a text message to send'),
    expect: WsMatch.optional().describe('wait for a message that matches (after the send, if any): its round trip from the send is an rtt'),
    ping: z.literal(true).optional().describe('a ping; the session waits for its pong'),
    timeoutMs: stepTimeout,
  })
  .refine((s) => (s.ping === true) !== (s.send !== undefined || s.expect !== undefined), { message: 'a step is a send (with or without expect), an expect alone, or a ping alone' });

export const WsStream = z.strictObject({
  protocol: z.literal('ws'),
  script: z.array(WsStep).max(MAX_WS_STEPS).default([]).describe('what the session does once upgraded, in order'),
  durationMs: z.number().int().min(1).max(24 * 3_600_000).optional().describe('hold the session open (receiving) until this long after its upgrade, then close it (a clean end); absent: it closes when its script ends'),
  replyTimeoutMs: z.number().int().min(1).max(3_600_000).default(10_000).describe('the upgrade, each awaited reply and each pong must come within this: else an idle error'),
  idleTimeoutMs: z.number().int().min(1).max(3_600_000).optional().describe('after the script, each message must come within this of the last: else an idle error; absent: a quiet session is fine'),
  pingEveryMs: z.number().int().min(10).max(3_600_000).optional().describe('while the session holds, a ping this often; its pong must come within replyTimeoutMs, else an idle error (a keep-alive that finds a dead peer)'),
  maxMessages: z.number().int().min(1).max(100_000_000).default(1_000_000).describe('more messages than this in one session is a protocol error (a flooding server)'),
  maxMessageBytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_WS_MESSAGE_BYTES)
    .default(1024 * 1024)
    .describe(`a message over this many bytes is refused at its frame's header, a protocol error; at most ${sizeText(MAX_WS_MESSAGE_BYTES)}`),
});
export type WsStream = z.output<typeof WsStream>;
