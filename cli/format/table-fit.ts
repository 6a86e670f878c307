import { fitNames } from '../../contract/name-fit.js';

// A text table narrowed to the terminal (issue 36: `run` and `show` printed a matrix's table 330
// columns wide, each line wrapped by the terminal into a jumble). Every figure stays whole, in order:
//
//   1. each heading wrapped at its spaces onto lines as wide as its column's figures ("processing
//      mean (ms)" -> "processing" / "mean (ms)")
//   2. the first column's names fitted by contract/name-fit.ts (onto two lines, then what every name
//      shares cut): to what the figures leave when that is at least NAME_MIN, else to NAME_SHARE
//   3. the figure columns split into blocks that fit, each block repeating the names
//
// Cells arrive terminal-safe (table.ts); widths are characters.

/** The most of the width the names may take when the figures are split into blocks anyway. */
const NAME_SHARE = 0.4;
/** The narrowest the names are wrapped to, to keep the figures in one block. */
const NAME_MIN = 20;
const GAP = '  ';

/** `text` wrapped at its spaces onto lines of at most `width` (a word longer than that keeps its own line). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The lines of the table fitted to `width` characters (as `textTable` lays it out, narrowed). */
export function fitTable(header: readonly string[], rows: readonly (readonly string[])[], below: ReadonlyMap<number, readonly string[]> | undefined, width: number): string[] {
  const columns = header.length;
  // the figures' own widths; a heading wraps down to its longest word at least
  const figureWidth = (i: number) => Math.max(...rows.map((r) => (r[i] ?? '').length), ...header[i]!.split(' ').map((w) => w.length));
  const figures = Array.from({ length: columns - 1 }, (_, k) => figureWidth(k + 1));
  // names: a row's own name ("server / phase"); an indented one (an endpoint under its phase) is left as it is
  const named = rows.map((r) => r[0] ?? '').filter((n) => n !== '' && !n.startsWith(' '));
  const widest = Math.max(header[0]!.length, ...rows.map((r) => (r[0] ?? '').length));
  // every figure in one block when the names can wrap narrow enough for it; else the names keep their share
  const oneBlock = width - figures.reduce((a, w) => a + GAP.length + w, 0);
  const nameMax = oneBlock >= NAME_MIN ? Math.min(widest, oneBlock) : Math.max(NAME_MIN, Math.min(widest, Math.floor(width * NAME_SHARE), width - GAP.length - Math.max(0, ...figures)));
  const fitted = fitNames(named, { max: nameMax, lines: 2 });
  const nameLines = new Map(named.map((n, i) => [n, fitted[i]!.split('\n')]));
  const linesOf = (name: string) => nameLines.get(name) ?? [name];
  const nameWidth = Math.max(...wrapWords(header[0]!, nameMax).map((l) => l.length), ...rows.map((r) => Math.max(...linesOf(r[0] ?? '').map((l) => l.length))));

  // blocks of figure columns, each as many as fit beside the names
  const blocks: number[][] = [];
  let used = Infinity;
  for (let k = 0; k < figures.length; k++) {
    const w = GAP.length + figures[k]!;
    if (used + w > width - nameWidth || blocks.length === 0) {
      blocks.push([]);
      used = 0;
    }
    blocks[blocks.length - 1]!.push(k + 1);
    used += w;
  }
  const out: string[] = [];
  blocks.forEach((block, b) => {
    if (b > 0) out.push('');
    const widths = [nameWidth, ...block.map((i) => figures[i - 1]!)];
    const heads = [wrapWords(header[0]!, nameWidth), ...block.map((i) => wrapWords(header[i]!, figures[i - 1]!))];
    const headLines = Math.max(...heads.map((h) => h.length));
    const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(GAP).trimEnd();
    // headings sit on their last line, above the rule
    for (let l = 0; l < headLines; l++) out.push(line(heads.map((h) => h[l - (headLines - h.length)] ?? '')));
    out.push(widths.map((w) => '-'.repeat(w)).join(GAP));
    rows.forEach((r, i) => {
      const [first, ...more] = linesOf(r[0] ?? '');
      out.push(line([first ?? '', ...block.map((c) => r[c] ?? '')]));
      for (const l of more) out.push(line([l, ...block.map(() => '')]));
      for (const note of below?.get(i) ?? []) out.push(`    ${note}`);
    });
  });
  return out;
}
