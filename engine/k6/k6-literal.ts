// Generated k6 code carries the scenario's strings only as data. JSON text is a JS expression, but
// not one that is safe everywhere it may land: U+2028/U+2029 end a line in older JS (and in a `//`
// comment), `*/` ends a block comment, `</script>` and `<!--` end or open HTML inside a page, and
// bidi controls make code read differently from how it runs. Each is written as a JSON escape
// (`\u2028`, `*\/`, `\u003c`), so the text is still valid JSON and evaluates to the same value.

const UNSAFE = /\*\/|[<>\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

const escapeUnsafe = (json: string) =>
  json.replace(UNSAFE, (c) => (c === '*/' ? '*\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

/** A value as JSON that is safe inside a script, a `//` or block comment, and an HTML page. */
export function scriptJson(value: unknown, indent?: number): string {
  return escapeUnsafe(JSON.stringify(value, null, indent));
}

/** A user string for a comment or a note: quoted and escaped, never verbatim. */
export function quoted(s: string): string {
  return scriptJson(s);
}

/** One `//` comment line: whatever it says, nothing in it can end the comment. */
export function commentLine(text: string): string {
  return `// ${text.replace(/[\r\n\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`;
}
