// The one spelling of a request's W3C trace context (https://www.w3.org/TR/trace-context/), issue 38:
// a phase with `traceparent: true` sends each request
//
//   traceparent: 00-<prefix: 16 hex><seq: 16 hex>-<seq: 16 hex>-01
//                 │   └──────── trace id ────────┘ └ parent ┘  └ sampled
//
// prefix: 64 random bits chosen once per server run and stored with it (targets.trace_prefix);
// seq: the request's number in that server run, from 1 (stored in its row, requests.trace_seq).
// So a row keeps one integer, not 32 hex characters, and the trace id is rebuilt wherever it is
// shown. Neither part is ever all zeros (the spec's invalid value): seq starts at 1.

/** 16 lower-case hex digits: a server run's trace prefix as stored. */
export const TRACE_PREFIX = /^[0-9a-f]{16}$/;

/** the biggest seq a row can carry exactly (a Float64 row column; 2^53 requests is never reached) */
const MAX_SEQ = Number.MAX_SAFE_INTEGER;

/** seq as 16 hex digits (seq a whole number from 1 to 2^53 - 1). */
export function seqHex(seq: number): string {
  if (!Number.isInteger(seq) || seq < 1 || seq > MAX_SEQ) throw new RangeError(`a trace seq must be a whole number from 1 to 2^53 - 1, got ${seq}`);
  return seq.toString(16).padStart(16, '0');
}

/** The 32-hex trace id of request `seq` of a server run whose prefix is `prefix`. */
export function traceIdOf(prefix: string, seq: number): string {
  return `${prefix}${seqHex(seq)}`;
}

/** The traceparent header value of request `seq` (the driver writes the same bytes in place: engine/driver/transport/traceparent.ts). */
export function traceparentOf(prefix: string, seq: number): string {
  return `00-${traceIdOf(prefix, seq)}-${seqHex(seq)}-01`;
}
