import { z } from 'zod';

// A gRPC call (issue 41, part G): the frame's placeholder, refused at run time until the gRPC
// transport plugs in (engine/driver/transport/index.ts streamOpenerFor).

export const GrpcStream = z.strictObject({
  protocol: z.literal('grpc'),
  durationMs: z.number().int().min(1).max(24 * 3_600_000).optional().describe('a server-streaming call: hold it open this long, then cancel it (a clean end)'),
});
export type GrpcStream = z.output<typeof GrpcStream>;
