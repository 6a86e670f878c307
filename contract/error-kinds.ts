// How a request failed, as the driver codes it in a raw row and every view names it. Its own module
// without zod, so the driver's worker thread, which needs only these names, does not load zod (about
// a tenth of the worker's start-up; contract/results.ts builds the schema from the same list).
// Appended kinds go last, so stored codes keep their meaning:
// 'extract': a journey's step found nothing to extract (contract/extract.ts);
// 'protocol': a response the client refused to parse (malformed framing, status line or headers: the
// fast path's and undici's HPE_* parser errors, a Content-Length the body does not match);
// 'check': a response that failed a check of its request's expect (contract/checks.ts);
// issue 41, streams (contract/stream.ts): 'stream': a stream the peer ended before its own end (its
// events, messages or duration); 'idle': no event or message within the template's limit; 'grpc': a
// gRPC call ended with a status other than OK (the reason names the status). An event, line or
// message over its bound is a 'protocol' error, as a response the client refused to parse.
export const ERROR_KINDS = ['refused', 'reset', 'timeout', 'http', 'body', 'other', 'extract', 'protocol', 'check', 'stream', 'idle', 'grpc'] as const;
export type ErrorKindName = (typeof ERROR_KINDS)[number];

/** Distinct kind-and-reason pairs a phase keeps (contract/results.ts ErrorReason). */
export const MAX_ERROR_REASONS = 16;
/** A reason is cut to this many characters. */
export const MAX_REASON_CHARS = 200;
