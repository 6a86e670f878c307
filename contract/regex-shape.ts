// Whether an extract's pattern could backtrack badly, read from its shape (issue 35: `^((a+)+)$` on a
// 1 MB body stalled the driver's thread, where no deadline can fire). Zod-free and engine-free, so
// the schema, the editor and the driver give the same answer anywhere. Refused, each with a reason:
//   a repeating quantifier (*, +, {n,m} with m > 1) over a group holding a quantifier or an
//     alternation: (a+)+, (a*)*, (a|a)+, (a+){2,}, ((ab)?c)*: star height above 1, or an ambiguous loop
//   more than MAX_QUANTIFIERS quantifiers (polynomial backtracking: \w*\w*\w*...)
//   backreferences (\1, \k<name>) and lookarounds ((?=, (?!, (?<=, (?<!): no linear-time engine runs them
//   a counted repeat above {16} ({17}, {16,}): V8's linear engine unrolls counts and refuses more
// safe-regex2 (fastify) refuses star height > 1 and more than 25 repetitions; this is as strict
// there and stricter where it is blind (an alternation in a loop, backreferences, lookarounds). What
// it lets through, the driver runs in V8's linear-time engine (engine/driver/requests/linear-regexp.ts),
// which runs every such pattern (a differential test holds it: linear-regexp.test.ts), so even a
// star-height-1 pattern (`(\w+)=` scans quadratically on a backtracking engine) takes time linear in
// the body. A package could stand in for this check: it is the one call `backtrackRisk` below.
// The pattern must already compile as a RegExp without flags (extractRegex checks that first).

/** Quantifiers in one pattern, at most (safe-regex2's default limit is 25). */
export const MAX_QUANTIFIERS = 25;
/** A counted repeat's largest unrolled count: V8's linear engine refuses more (kMaxReplicationFactor). */
export const MAX_REPEAT_COUNT = 16;

interface Frame {
  /** quantifiers inside, at any depth */
  quantifiers: number;
  /** an alternation inside, at any depth */
  alternation: boolean;
}

const COUNTED = /\{(\d+)(?:(,)(\d*))?\}/y;

/** A counted quantifier ({n}, {n,}, {n,m}) at `at`, or null where a '{' is a character. */
function countedAt(pattern: string, at: number): { min: number; max: number; end: number } | null {
  COUNTED.lastIndex = at;
  const m = COUNTED.exec(pattern);
  if (m === null) return null;
  const min = Number(m[1]);
  return { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]), end: COUNTED.lastIndex };
}

/** A one-line reason the pattern could backtrack badly or cannot run in linear time, or null. */
export function backtrackRisk(pattern: string): string | null {
  const stack: Frame[] = [{ quantifiers: 0, alternation: false }];
  /** what a quantifier here would repeat: the group just closed, 'atom' (a character or class), or null (nothing) */
  let last: Frame | 'atom' | null = null;
  let quantifiers = 0;
  const quantify = (min: number, max: number, text: string): string | null => {
    if (++quantifiers > MAX_QUANTIFIERS) return `more than ${MAX_QUANTIFIERS} quantifiers: a pattern of many repeats can backtrack for a very long time`;
    if ((max === Infinity ? min + 1 : max) > MAX_REPEAT_COUNT) return `'${text}': a counted repeat above {${MAX_REPEAT_COUNT}} cannot run in linear time; use + or * (e.g. [0-9a-f]+)`;
    if (max > 1 && last !== null && last !== 'atom' && (last.quantifiers > 0 || last.alternation)) {
      const what = last.alternation ? 'an alternation' : 'a quantifier';
      return `'${text}' repeats a group holding ${what} (as in (a+)+ or (a|b)+), which can backtrack for a very long time; repeat a character class instead (e.g. [ab]+)`;
    }
    stack[stack.length - 1]!.quantifiers++;
    last = null;
    return null;
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    let risk: string | null = null;
    let counted: ReturnType<typeof countedAt> = null;
    if (c === '\\') {
      const d = pattern[i + 1] ?? '';
      if (d >= '1' && d <= '9') return `'\\${d}': backreferences cannot run in linear time`;
      if (d === 'k') return `'\\k': named backreferences cannot run in linear time`;
      // \b and \B are assertions (nothing to repeat); any other escape is one character or class
      last = d === 'b' || d === 'B' ? null : 'atom';
      i += 2;
    } else if (c === '[') {
      // a class is one atom; `[]` is empty and `[^]` any character, so a ']' first closes it
      let j = i + 1;
      if (pattern[j] === '^') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      last = 'atom';
      i = j + 1;
    } else if (c === '(') {
      const lookbehind = pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i);
      if (lookbehind || pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) return `'${pattern.slice(i, i + (lookbehind ? 4 : 3))}': lookarounds cannot run in linear time`;
      if (pattern[i + 1] === '?' && !pattern.startsWith('(?:', i) && !pattern.startsWith('(?<', i)) return `'${pattern.slice(i, i + 3)}': only (...), (?:...) and (?<name>...) groups`;
      stack.push({ quantifiers: 0, alternation: false });
      last = null;
      i = pattern.startsWith('(?:', i) ? i + 3 : pattern.startsWith('(?<', i) ? pattern.indexOf('>', i) + 1 : i + 1;
    } else if (c === ')') {
      const group = stack.pop()!;
      const parent = stack[stack.length - 1]!;
      parent.quantifiers += group.quantifiers;
      parent.alternation ||= group.alternation;
      last = group;
      i++;
    } else if (c === '|') {
      stack[stack.length - 1]!.alternation = true;
      last = null;
      i++;
    } else if (c === '*' || c === '+' || c === '?') {
      risk = quantify(c === '+' ? 1 : 0, c === '?' ? 1 : Infinity, c);
      i++;
      // a lazy quantifier's '?' belongs to it
      if (pattern[i] === '?') i++;
    } else if (c === '{' && last !== null && (counted = countedAt(pattern, i)) !== null) {
      risk = quantify(counted.min, counted.max, pattern.slice(i, counted.end));
      i = counted.end;
      if (pattern[i] === '?') i++;
    } else {
      // ^ and $ are assertions; anything else, a '{' that is no count included, is one character
      last = c === '^' || c === '$' ? null : 'atom';
      i++;
    }
    if (risk !== null) return risk;
  }
  return null;
}
