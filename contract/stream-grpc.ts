import { z } from 'zod';
import { sizeText } from './request-limits.js';

// A gRPC call (issue 41): the template's path is the method ('/package.Service/Method'), its body
// the request message as JSON text (proto3 field names; placeholders as in any body), its headers
// the call's metadata; the .proto with the method names a file relative to the scenario's file.
// Unary and server-streaming methods; every message in is one message of the stream (ttfe, gaps). A
// server stream ends cleanly after `messages` or `durationMs`, or when the server ends it; a status
// other than OK is a 'grpc' error naming it, a message over maxMessageBytes a 'protocol' error
// (engine/driver/transport/grpc.ts). The endpoint is named service/method unless the template names it.

/** The largest message a template may allow (grpc-js holds a whole message before handing it on). */
export const MAX_GRPC_MESSAGE_BYTES = 64 * 1024 * 1024;
/** grpc's own default receive bound. */
export const GRPC_DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A template's path as a gRPC method: /package.Service/Method. */
export const GRPC_PATH = /^\/[A-Za-z_][\w.]*\/[A-Za-z_]\w*$/;

export const GrpcStream = z.strictObject({
  protocol: z.literal('grpc'),
  proto: z.string().min(1).max(4096).describe("the .proto file that has the template's method (its path, /package.Service/Method), relative to the scenario's file"),
  messages: z.number().int().min(1).max(100_000_000).optional().describe('a server-streaming call: end it cleanly after this many messages'),
  durationMs: z.number().int().min(1).max(24 * 3_600_000).optional().describe('a server-streaming call: hold it open this long, then cancel it (a clean end)'),
  maxMessageBytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_GRPC_MESSAGE_BYTES)
    .default(GRPC_DEFAULT_MAX_MESSAGE_BYTES)
    .describe(`a reply message over this many bytes is refused unread (a protocol error); at most ${sizeText(MAX_GRPC_MESSAGE_BYTES)}`),
});
export type GrpcStream = z.output<typeof GrpcStream>;

/** Why a gRPC template's path is no method, or null. */
export function grpcPathIssue(path: string): string | null {
  return GRPC_PATH.test(path) ? null : "a gRPC call's path is its method, /package.Service/Method (e.g. /loadscope.Bench/Fib)";
}
