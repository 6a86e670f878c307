// Server-Timing parsed straight from undici's raw header buffers, without making strings:
//   Server-Timing: wait;dur=1.5, proc;dur=42.25
// Only the `wait` and `proc` metrics' `dur` (ms) are read; anything else is skipped.

const SEMI = 0x3b;
const COMMA = 0x2c;
const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const EQ = 0x3d;
const DOT = 0x2e;
const lower = (c: number): number => c | 0x20;

/** Does b[start..end) equal the lower-case ASCII `name`, ignoring case? (header names, no strings made) */
export function nameIs(b: Buffer, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (lower(b[start + i]!) !== name.charCodeAt(i)) return false;
  return true;
}

/** Is this raw header name `server-timing` (any case)? */
export function isServerTimingName(name: Buffer): boolean {
  return nameIs(name, 0, name.length, 'server-timing');
}

export const METRIC_WAIT = 1;
export const METRIC_PROC = 2;

/** Where the parser puts what it found (ms; NaN = absent). */
export interface TimingSink {
  stWait: number;
  stProc: number;
}

function metricAt(b: Buffer, start: number, end: number): number {
  if (end - start !== 4) return 0;
  const c0 = lower(b[start]!);
  const c1 = lower(b[start + 1]!);
  const c2 = lower(b[start + 2]!);
  const c3 = lower(b[start + 3]!);
  if (c0 === 0x77 && c1 === 0x61 && c2 === 0x69 && c3 === 0x74) return METRIC_WAIT; // wait
  if (c0 === 0x70 && c1 === 0x72 && c2 === 0x6f && c3 === 0x63) return METRIC_PROC; // proc
  return 0;
}

const isWs = (c: number): boolean => c === SPACE || c === TAB;

export function parseServerTiming(b: Buffer, sink: TimingSink): void {
  const n = b.length;
  let i = 0;
  while (i < n) {
    while (i < n && (isWs(b[i]!) || b[i] === COMMA)) i++;
    const nameStart = i;
    while (i < n && b[i] !== SEMI && b[i] !== COMMA && !isWs(b[i]!)) i++;
    const metric = metricAt(b, nameStart, i);
    // parameters: ;name=value ... up to the next comma outside quotes
    while (i < n && b[i] !== COMMA) {
      if (b[i] !== SEMI) {
        i++;
        continue;
      }
      i++;
      while (i < n && isWs(b[i]!)) i++;
      const isDur =
        i + 3 < n && lower(b[i]!) === 0x64 && lower(b[i + 1]!) === 0x75 && lower(b[i + 2]!) === 0x72 && b[i + 3] === EQ;
      if (isDur) {
        i += 4;
        let quoted = false;
        if (b[i] === QUOTE) {
          quoted = true;
          i++;
        }
        let value = 0;
        let digits = 0;
        let scale = 0;
        for (; i < n; i++) {
          const c = b[i]!;
          if (c >= 0x30 && c <= 0x39) {
            value = value * 10 + (c - 0x30);
            digits++;
            if (scale) scale *= 10;
          } else if (c === DOT && !scale) scale = 1;
          else break;
        }
        if (quoted && b[i] === QUOTE) i++;
        if (digits > 0 && metric !== 0) {
          const ms = scale ? value / scale : value;
          if (metric === METRIC_WAIT) sink.stWait = ms;
          else sink.stProc = ms;
        }
      } else {
        // skip the parameter, honouring a quoted value
        while (i < n && b[i] !== SEMI && b[i] !== COMMA) {
          if (b[i] === QUOTE) {
            i++;
            while (i < n && b[i] !== QUOTE) i++;
          }
          i++;
        }
      }
    }
  }
}
