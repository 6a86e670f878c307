import { z } from 'zod';

// A WebSocket session (issue 41, part W): the frame's placeholder, refused at run time until the
// WebSocket transport plugs in (engine/driver/transport/index.ts streamOpenerFor).

export const WsStream = z.strictObject({
  protocol: z.literal('ws'),
  durationMs: z.number().int().min(1).max(24 * 3_600_000).optional().describe('hold the session open this long, then close it (a clean end)'),
});
export type WsStream = z.output<typeof WsStream>;
