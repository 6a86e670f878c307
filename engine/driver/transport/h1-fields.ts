import { nameIs } from '../measure/server-timing.js';

// Byte classes and field values of HTTP/1.1 responses (RFC 9110 / 9112) as the fast path's parser
// (h1-response.ts) reads them in place: tables indexed by byte, no allocation.

export const CR = 0x0d;
export const LF = 0x0a;
export const SP = 0x20;
export const HT = 0x09;
export const COLON = 0x3a;

/** RFC 9110 tchar: header names */
export const TOKEN = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~") TOKEN[c.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) TOKEN[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TOKEN[c] = TOKEN[c + 0x20] = 1;

/** field-value bytes: HTAB, SP, VCHAR, obs-text (never CR, LF, NUL, other controls or DEL) */
export const VALUE = new Uint8Array(256);
VALUE[HT] = 1;
for (let c = 0x20; c <= 0x7e; c++) VALUE[c] = 1;
for (let c = 0x80; c <= 0xff; c++) VALUE[c] = 1;

/** a hex digit's value, else -1 */
export const HEX = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX['0123456789abcdef'.charCodeAt(d)] = d;
  HEX['0123456789ABCDEF'.charCodeAt(d)] = d;
}

/** Content-Length and chunk sizes above this overflow (beyond it a JS number loses whole bytes). */
export const MAX_LENGTH = Number.MAX_SAFE_INTEGER;

export const LENGTH_EMPTY = -1;
export const LENGTH_NOT_DIGITS = -2;
export const LENGTH_OVERFLOW = -3;

/** A Content-Length value buf[vs, ve) (whitespace trimmed): its number, or LENGTH_EMPTY / _NOT_DIGITS / _OVERFLOW. */
export function lengthValue(buf: Buffer, vs: number, ve: number): number {
  if (vs === ve) return LENGTH_EMPTY;
  let n = 0;
  for (let k = vs; k < ve; k++) {
    const d = buf[k]! - 0x30;
    if (d < 0 || d > 9) return LENGTH_NOT_DIGITS;
    n = n * 10 + d;
    if (n > MAX_LENGTH) return LENGTH_OVERFLOW;
  }
  return n;
}

/** Whether a Transfer-Encoding value's last coding is `chunked` (any case; `xchunked` is not). */
export function endsChunked(buf: Buffer, vs: number, ve: number): boolean {
  if (ve - vs < 7 || !nameIs(buf, ve - 7, ve, 'chunked')) return false;
  const before = buf[ve - 8];
  return ve - 7 === vs || before === 0x2c || before === SP || before === HT;
}

export const CONNECTION_CLOSE = 1;
export const CONNECTION_KEEP_ALIVE = 2;

/** The `close` and `keep-alive` tokens (any case) of a Connection value, a comma-separated list, as flags. */
export function connectionTokens(buf: Buffer, vs: number, ve: number): number {
  let flags = 0;
  for (let t = vs; t < ve; ) {
    let end = buf.indexOf(0x2c, t);
    if (end < 0 || end > ve) end = ve;
    let a = t;
    let z = end;
    while (a < z && (buf[a] === SP || buf[a] === HT)) a++;
    while (z > a && (buf[z - 1] === SP || buf[z - 1] === HT)) z--;
    if (nameIs(buf, a, z, 'close')) flags |= CONNECTION_CLOSE;
    else if (nameIs(buf, a, z, 'keep-alive')) flags |= CONNECTION_KEEP_ALIVE;
    t = end + 1;
  }
  return flags;
}
