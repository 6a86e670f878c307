import type { SKRSContext2D } from '@napi-rs/canvas';

// Text on the PNG's canvas that keeps to its box: cut with "..." to a width, or wrapped onto lines.

/** The text, cut at its end with "..." so it fits `width` in the context's current font (names of a set: contract/name-fit.ts). */
export function fitText(ctx: SKRSContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${text.slice(0, mid)}...`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}...`;
}

/** The text wrapped at spaces onto lines of at most `width`, at most `maxLines` (the last cut with "..."). */
export function wrapText(ctx: SKRSContext2D, text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  const words = text.split(/\s+/).filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    const next = line === '' ? words[i]! : `${line} ${words[i]}`;
    if (line !== '' && ctx.measureText(next).width > width) {
      lines.push(line);
      if (lines.length === maxLines) {
        lines[maxLines - 1] = fitText(ctx, `${line} ${words.slice(i).join(' ')}`, width);
        return lines;
      }
      line = words[i]!;
    } else {
      line = next;
    }
  }
  if (line !== '') lines.push(fitText(ctx, line, width));
  return lines;
}
