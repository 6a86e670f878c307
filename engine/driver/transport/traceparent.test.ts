import { describe, expect, it } from 'vitest';
import { seqHex, traceparentOf } from '../../../contract/trace-context.js';
import { stampSeq, traceLineAt } from './traceparent.js';

// The fast path writes a request's trace seq into its bytes in place (traceparent.ts); undici sends
// the contract's string (contract/trace-context.ts). Both must spell every seq alike, the high 32 bits
// included, or a trace id shown by `show --slowest` would not be the one the server received.

const PREFIX = 'fedcba9876543210';
const head = (value: string) => Buffer.from(`GET /x HTTP/1.1\r\nhost: h\r\ntraceparent: ${value}\r\naccept: */*\r\n\r\n`, 'latin1');

describe('the traceparent written in place', () => {
  it('seqs across the 32-bit edge and up to 2^53 - 1: the bytes read exactly as the contract spells them', () => {
    const seqs = [1, 15, 16, 0xffff_ffff, 0x1_0000_0000, 0x1_2345_6789, 2 ** 52 + 7, Number.MAX_SAFE_INTEGER];
    for (const seq of seqs) {
      const bytes = head(traceparentOf(PREFIX, 1));
      stampSeq(bytes, traceLineAt(bytes), seq);
      expect(bytes.toString('latin1'), String(seq)).toBe(head(traceparentOf(PREFIX, seq)).toString('latin1'));
    }
  });

  it('a seq that is not a whole number from 1 to 2^53 - 1: the contract refuses to spell it', () => {
    for (const seq of [0, -1, 1.5, NaN, 2 ** 53]) expect(() => seqHex(seq), String(seq)).toThrow(RangeError);
  });
});
