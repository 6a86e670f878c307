import { setFlagsFromString } from 'node:v8';

// An extract's pattern runs in V8's linear-time regexp engine (the `l` flag, behind
// --enable-experimental-regexp-engine): its time is linear in the body whatever the pattern, where
// the backtracking engine takes quadratic time on an ordinary `(\w+)=` over a body without '='
// (16 KB: 0.1 s, so a 1 MiB body: minutes) and exponential on `^((a+)+)$`, on the driver's thread,
// where no deadline can fire. V8 reads the flag when a RegExp is made, so setting it here, once, is
// enough (it only makes the `l` flag known; other RegExps are untouched). Patterns reaching this
// passed contract/regex-shape.ts, which refuses whatever the linear engine cannot run
// (linear-regexp.test.ts holds the two together). Where the flag is unknown (a V8 without the
// engine), the pattern runs on the backtracking engine, still within regex-shape's limits.

let linear: boolean | null = null;

function linearEngine(): boolean {
  if (linear !== null) return linear;
  try {
    setFlagsFromString('--enable-experimental-regexp-engine');
    linear = new RegExp('(a)', 'l').flags.includes('l');
  } catch {
    linear = false;
  }
  return linear;
}

/** The pattern's RegExp in the linear-time engine (where this V8 has it). */
export function linearRegExp(pattern: string): RegExp {
  return new RegExp(pattern, linearEngine() ? 'l' : '');
}
