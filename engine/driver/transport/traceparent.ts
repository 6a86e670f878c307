import type { Phase } from '../../../contract/scenario.js';
import { traceparentOf } from '../../../contract/trace-context.js';

// The traceparent header on every transport (issue 38; the format: contract/trace-context.ts). A
// tracing phase's templates are compiled with the header at seq 1 (withTraceparent), so each
// transport builds it as any other header; per request only its two 16-hex seq fields change:
//
//   ...\r\ntraceparent: 00-<prefix 16 hex><seq 16 hex>-<seq 16 hex>-01\r\n...
//       └ LINE ─────────────┘             ▲ SEQ_AT      ▲ PARENT_AT     (offsets from the line)
//
// The fast path writes them into the request's bytes in place (stampSeq: no string, no allocation
// beyond the request's own copy); undici takes the header's value as a string (traceparentOf).
// A phase without the option gets none of this: its groups have no TraceIds and send as before.

/** A server run's trace prefix and its requests' numbers: one per driver run, shared by its groups, so every seq is unique in the server run. */
export class TraceIds {
  private last = 0;

  /** prefix: 16 lower-case hex digits (contract/trace-context.ts TRACE_PREFIX) */
  constructor(readonly prefix: string) {}

  /** the next request's seq, from 1 */
  next(): number {
    return ++this.last;
  }
}

const LINE = Buffer.from('\r\ntraceparent: 00-', 'latin1');
const SEQ_AT = LINE.length + 16;
const PARENT_AT = SEQ_AT + 16 + 1;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** A template's headers without any traceparent of its own (the phase's option decides the header). */
function withoutTraceparent(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'traceparent'));
}

/** The phase as a tracing transport compiles it: each template sends traceparent (at seq 1, overwritten per request). */
export function withTraceparent(phase: Phase, prefix: string): Phase {
  const value = traceparentOf(prefix, 1);
  return { ...phase, requests: phase.requests.map((t) => ({ ...t, headers: { ...withoutTraceparent(t.headers), traceparent: value } })) };
}

/** Where a request's bytes hold the traceparent line (-1: none). */
export function traceLineAt(bytes: Buffer): number {
  return bytes.indexOf(LINE);
}

/** seq (1 .. 2^53 - 1) as 16 hex digits at bytes[at..at+16], in place. */
function writeHex16(bytes: Buffer, at: number, seq: number): void {
  let lo = seq >>> 0;
  let hi = Math.floor(seq / 0x1_0000_0000);
  for (let i = 15; i >= 8; i--, lo >>>= 4) bytes[at + i] = HEX[lo & 15]!;
  for (let i = 7; i >= 0; i--, hi >>>= 4) bytes[at + i] = HEX[hi & 15]!;
}

/** Writes request seq's trace id half and parent id into the traceparent line found at `line`. */
export function stampSeq(bytes: Buffer, line: number, seq: number): void {
  writeHex16(bytes, line + SEQ_AT, seq);
  writeHex16(bytes, line + PARENT_AT, seq);
}
