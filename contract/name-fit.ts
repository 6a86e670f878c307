// How a set of names is shortened to fit N px (or characters): the one place every legend, table,
// axis and terminal asks. Names are told apart by what varies between them ("cluster · workers 1 ·
// path /fib?n=15" against "... /fib?n=20"), so what every name shares goes first and the varying
// part last:
//
//   1. as they are, wrapped at " · " onto `lines` lines          (nothing lost)
//   2. the parts every name shares dropped ("load" in every name)   (said once elsewhere: title, hover)
//   3. the constant ends of each varying part cut: "workers 1" -> "wo… 1", "path /fib?n=15" -> "pa…15"
//   4. the constant ends down to "…", then the varying middles cut in their middle, as far as keeps
//      them apart
//   5. numbered ("#3 …"): distinct whatever the names, the last resort
//
// Invariant (held by name-fit.test.ts's property test): equal names fit alike and distinct names
// stay distinct, whatever the width. A name fits when each of its lines measures at most `max`;
// only step 5 may exceed a width narrower than its number.

/** Between the parts of a name: a server and its cell's keys ("thread-pool · cores 1 · 10 req"). */
export const NAME_SEP = ' · ';
/** What stands for a cut piece. */
export const CUT = '…';

/** A text's width: px in a font (a canvas), or characters (the default). */
export type Measure = (text: string) => number;
export const byChars: Measure = (text) => text.length;

export interface FitOptions {
  /** the widest a line may be, in `measure`'s unit */
  max: number;
  /** lines a name may take, wrapped at its " · " (a "\n" in a name always breaks); 1 by default */
  lines?: number;
  measure?: Measure;
}

// A name as parts and the separators between them (" · ", or "\n" where its caller breaks a line).
interface Split {
  parts: string[];
  seps: string[];
}

function split(name: string): Split {
  const parts: string[] = [];
  const seps: string[] = [];
  let rest = name;
  for (;;) {
    const dot = rest.indexOf(NAME_SEP);
    const nl = rest.indexOf('\n');
    const at = dot === -1 ? nl : nl === -1 ? dot : Math.min(dot, nl);
    if (at === -1) break;
    const sep = at === nl ? '\n' : NAME_SEP;
    parts.push(rest.slice(0, at));
    seps.push(sep);
    rest = rest.slice(at + sep.length);
  }
  parts.push(rest);
  return { parts, seps };
}

// A part's pieces: a constant head and tail (the same in every name's part at this place) around
// the middle that varies. A whole part the same in every name is `common`.
interface Piece {
  head: string;
  mid: string;
  tail: string;
}

const BOUNDARY = /[\s=/?&:,;.#_\-()[\]]/;

/** The longest start every text shares, ending just after a boundary (" ", "=", "/" ...), so a number is never split. */
function sharedHead(texts: readonly string[]): number {
  const first = texts[0]!;
  let n = Math.min(...texts.map((t) => t.length));
  for (const t of texts) {
    let i = 0;
    while (i < n && t[i] === first[i]) i++;
    n = i;
  }
  while (n > 0 && !BOUNDARY.test(first[n - 1]!)) n--;
  return n;
}

/** The longest end every text shares, starting at a boundary, not reaching into the first `head` characters. */
function sharedTail(texts: readonly string[], head: number): number {
  const first = texts[0]!;
  let n = Math.min(...texts.map((t) => t.length - head));
  for (const t of texts) {
    let i = 0;
    while (i < n && t[t.length - 1 - i] === first[first.length - 1 - i]) i++;
    n = i;
  }
  while (n > 0 && !BOUNDARY.test(first[first.length - n]!)) n--;
  return n;
}

interface Shape {
  /** per name, its pieces: one per part when every name has as many parts, else one for the whole name */
  pieces: Piece[][];
  seps: string[][];
  /** per part index, whether it reads the same in every name */
  common: boolean[];
}

function shapeOf(names: readonly string[]): Shape {
  const splits = names.map(split);
  const count = splits[0]!.parts.length;
  const aligned = splits.every((s) => s.parts.length === count);
  const rows = aligned ? splits : names.map((n) => ({ parts: [n.replace(/\n/g, NAME_SEP)], seps: [] }));
  const width = rows[0]!.parts.length;
  const pieces: Piece[][] = rows.map(() => []);
  const common: boolean[] = [];
  for (let c = 0; c < width; c++) {
    const column = rows.map((r) => r.parts[c]!);
    const same = column.every((t) => t === column[0]);
    common.push(same && names.length > 1);
    const head = same ? 0 : sharedHead(column);
    const tail = same ? 0 : sharedTail(column, head);
    column.forEach((t, i) => pieces[i]!.push({ head: t.slice(0, head), mid: t.slice(head, t.length - tail), tail: t.slice(t.length - tail) }));
  }
  return { pieces, seps: rows.map((r) => r.seps), common };
}

/** A constant head kept to `keep` characters: "workers " -> "wo… ", "path /fib?n=" -> "pa…", "workers " -> "…" at 0. */
function cutHead(head: string, keep: number): string {
  if (keep >= head.length) return head;
  // kept to nothing, the mark alone stands for it, against its value: "…1"
  const space = head.endsWith(' ') && keep > 0 ? ' ' : '';
  return `${head.slice(0, keep).trimEnd()}${CUT}${space}`;
}

/** A constant tail kept to `keep` characters after its boundary: " users" -> " us…". */
function cutTail(tail: string, keep: number): string {
  if (keep >= tail.length) return tail;
  const space = tail.startsWith(' ') ? ' ' : '';
  const body = tail.slice(space.length);
  return `${space}${body.slice(0, Math.max(0, keep - space.length))}${CUT}`;
}

/** A varying middle kept to `keep` characters, both ends kept ("thread-per-request" -> "thr…uest"). */
function cutMiddle(text: string, keep: number): string {
  if (keep >= text.length) return text;
  const front = Math.ceil(keep / 2);
  return `${text.slice(0, front)}${CUT}${text.slice(text.length - (keep - front))}`;
}

interface Level {
  dropCommon: boolean;
  /** characters kept of each constant head and tail (Infinity: whole) */
  constant: number;
  /** characters kept of each varying middle (Infinity: whole) */
  middle: number;
}

/** The name's lines at `level`: parts cut, then laid onto lines at its separators as they fit (on one line, a "\n" reads " · "). */
function render(shape: Shape, i: number, level: Level, max: number, room: number, measure: Measure): string[] {
  const parts: string[] = [];
  const seps: string[] = [];
  shape.pieces[i]!.forEach((p, c) => {
    if (level.dropCommon && shape.common[c] && shape.common.some((x) => !x)) return;
    if (parts.length > 0) seps.push(shape.seps[i]![c - 1] ?? NAME_SEP);
    parts.push(`${cutHead(p.head, level.constant)}${cutMiddle(p.mid, level.middle)}${cutTail(p.tail, level.constant)}`);
  });
  const lines: string[] = [];
  let line = parts[0] ?? '';
  for (let k = 1; k < parts.length; k++) {
    const joined = `${line}${NAME_SEP}${parts[k]}`;
    if ((seps[k - 1] === '\n' && room > 1) || measure(joined) > max) {
      lines.push(line);
      line = parts[k]!;
    } else {
      line = joined;
    }
  }
  lines.push(line);
  return lines;
}

const fits = (lines: readonly string[], max: number, room: number, measure: Measure) => lines.length <= room && lines.every((l) => measure(l) <= max);

/**
 * The names fitted to `max` per line on at most `lines` lines (joined by "\n"), in order: equal
 * names alike, distinct names distinct, each cut only as far as the set needs.
 */
export function fitNames(names: readonly string[], { max, lines = 1, measure = byChars }: FitOptions): string[] {
  const distinct = [...new Set(names)];
  if (distinct.length === 0) return [];
  const shape = shapeOf(distinct);
  const room = Math.max(1, lines);
  const at = (level: Level) => distinct.map((_, i) => render(shape, i, level, max, room, measure));
  const ok = (out: readonly string[][]) => out.every((l) => fits(l, max, room, measure)) && new Set(out.map((l) => l.join('\n'))).size === out.length;
  const longest = (f: (p: Piece) => number) => Math.max(0, ...shape.pieces.flat().map(f));

  let found: string[][] | null = null;
  const whole: Level = { dropCommon: false, constant: Infinity, middle: Infinity };
  for (const level of [whole, { ...whole, dropCommon: true }]) {
    const out = at(level);
    if (ok(out)) {
      found = out;
      break;
    }
  }
  // the largest cut of the constant ends that fits, then of the middles: fitting only grows with what is kept
  const largest = (hi: number, level: (n: number) => Level): string[][] | null => {
    let lo = 0;
    let best: string[][] | null = null;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const out = at(level(mid));
      if (out.every((l) => fits(l, max, room, measure))) {
        best = out;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best !== null && ok(best) ? best : null;
  };
  found ??= largest(longest((p) => Math.max(p.head.length, p.tail.length)), (n) => ({ dropCommon: true, constant: n, middle: Infinity }));
  found ??= largest(longest((p) => p.mid.length), (n) => ({ dropCommon: true, constant: 0, middle: n }));
  const fitted = found?.map((l) => l.join('\n')) ?? numbered(distinct, max, measure);
  const byName = new Map(distinct.map((n, i) => [n, fitted[i]!]));
  return names.map((n) => byName.get(n)!);
}

/** The last resort: "#1 …", "#2 …" (a different number each, so distinct), each cut at its end to what is left of `max`. */
function numbered(names: readonly string[], max: number, measure: Measure): string[] {
  return names.map((n, i) => {
    const tag = `#${i + 1} `;
    const text = n.replace(/\n/g, NAME_SEP);
    if (measure(`${tag}${text}`) <= max) return `${tag}${text}`;
    let keep = text.length - 1;
    while (keep > 0 && measure(`${tag}${text.slice(0, keep)}${CUT}`) > max) keep--;
    return `${tag}${text.slice(0, keep)}${CUT}`;
  });
}
