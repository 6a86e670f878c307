import { literalText } from '../../contract/variables.js';

// One field of a captured request (its path, a header's value, its body) as recorded text that
// placeholders replace piece by piece. Every piece keeps its offset in the recorded text, so a rule
// about where a value stands (inside a JSON string, a whole path segment, not inside a longer word)
// is asked of the recorded text, whatever was replaced before it. The template is the recorded
// text taken literally ({{ escaped) with the placeholders put in.
//
//   recorded  "Bearer eyJhbGciOi..."      replace("eyJhbGciOi...", "{{vars.accessToken}}")
//   pieces    [{text: "Bearer ", at: 0}, {placeholder: "{{vars.accessToken}}"}]
//   template  "Bearer {{vars.accessToken}}"

type Piece = { text: string; at: number } | { placeholder: string };

/** Whether `needle` found at `at` of the recorded text may be replaced there. */
export type Where = (recorded: string, at: number, length: number) => boolean;

const WORD = /[A-Za-z0-9]/;

/** Not inside a longer word: the characters either side (if any) are not letters or digits. */
export const standsAlone: Where = (text, at, length) => !WORD.test(text.charAt(at - 1)) && !WORD.test(text.charAt(at + length));

export class FieldText {
  private pieces: Piece[];

  constructor(readonly recorded: string) {
    this.pieces = recorded === '' ? [] : [{ text: recorded, at: 0 }];
  }

  /** Replaces each occurrence of `needle` in the recorded (not yet replaced) text where `where` allows; the count replaced. */
  replace(needle: string, placeholder: string, where: Where = standsAlone): number {
    if (needle === '') return 0;
    let count = 0;
    const out: Piece[] = [];
    for (const piece of this.pieces) {
      if (!('text' in piece)) {
        out.push(piece);
        continue;
      }
      let from = 0;
      for (let i = piece.text.indexOf(needle); i >= 0; i = piece.text.indexOf(needle, i + 1)) {
        if (i < from || !where(this.recorded, piece.at + i, needle.length)) continue;
        if (i > from) out.push({ text: piece.text.slice(from, i), at: piece.at + from });
        out.push({ placeholder });
        count++;
        from = i + needle.length;
      }
      if (from < piece.text.length) out.push({ text: piece.text.slice(from), at: piece.at + from });
    }
    this.pieces = out;
    return count;
  }

  /** How many occurrences `replace` would replace now. */
  count(needle: string, where: Where = standsAlone): number {
    if (needle === '') return 0;
    let count = 0;
    for (const piece of this.pieces) {
      if (!('text' in piece)) continue;
      for (let i = piece.text.indexOf(needle); i >= 0; i = piece.text.indexOf(needle, i + 1)) {
        if (!where(this.recorded, piece.at + i, needle.length)) continue;
        count++;
        i += needle.length - 1;
      }
    }
    return count;
  }

  /** The recorded text not replaced, piece by piece. */
  literals(): string[] {
    return this.pieces.flatMap((p) => ('text' in p ? [p.text] : []));
  }

  get replaced(): boolean {
    return this.pieces.some((p) => !('text' in p));
  }

  /** The template: recorded text taken literally, placeholders as they are. */
  template(): string {
    return this.pieces.map((p) => ('text' in p ? literalText(p.text) : p.placeholder)).join('');
  }
}

/** For each character of a JSON text: whether it stands inside a string (between its quotes). */
export function jsonStringMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!inString) {
      if (c === 0x22) inString = true;
      continue;
    }
    if (escaped) escaped = false;
    else if (c === 0x5c) escaped = true;
    else if (c === 0x22) {
      inString = false;
      continue;
    }
    mask[i] = 1;
  }
  return mask;
}
