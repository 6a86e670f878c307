// Text bound for a terminal shows the characters a terminal would act on instead of printing them:
// C0 controls other than line feed and tab (ESC starts OSC title/clipboard, clear-screen and every
// CSI; CR rewrites the line), DEL, the C1 controls U+0080-U+009F (U+009B is a one-byte CSI) and the
// bidi controls that reorder what follows (U+202A-U+202E, U+2066-U+2069, U+200E/U+200F, U+061C), plus
// the line and paragraph separators. Each becomes `\uXXXX`: visible, and inside a JSON string the same
// escape JSON.parse reads back, so `--json` output stays valid and means the same strings.
// Backslashes are left alone for that reason (escaping them would change JSON's meaning).

const CONTROLS = '\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const UNSAFE = new RegExp(`[${CONTROLS}]`, 'g');
const UNSAFE_INLINE = new RegExp(`[\\n\\t${CONTROLS}]`, 'g');

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control or bidi character a terminal would act on written as `\uXXXX`. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** Same, and line feed and tab too: for text that must stay on its line (a table cell, a status line). */
export function terminalSafeInline(text: string): string {
  return text.replace(UNSAFE_INLINE, escape);
}
