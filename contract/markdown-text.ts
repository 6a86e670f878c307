// Markdown's one escaper: a user's string (a name, a label, a rule) in a Markdown table cell or line
// is text, never markup. The CI summary (--markdown) and the report tables in Markdown both ask it.

/**
 * Text as a GitHub-flavoured Markdown table cell shows it literally: HTML's specials as entities,
 * Markdown's punctuation backslash-escaped (`|` would end the cell, `*`/`_`/`` ` ``/`[` start markup),
 * line breaks as spaces, `@` kept from mentioning anyone (a zero-width space after it), and no bare
 * URL, `www.`, domain or address made a link (notLinkable).
 */
export function mdText(text: string): string {
  return notLinkable(
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/[\\`*_{}[\]()#+!|~]/g, (c) => `\\${c}`)
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      .replace(/@/g, '@\u200b'),
  );
}

/**
 * Autolinkers look for `scheme:`, `//`, `www.` and `name.tld` in the text as written: GitHub's
 * (cmark-gfm) at `:` and `w` in the source, markdown-it's linkify in each text run, where an entity
 * is a run of its own. So `:`, a `/` before `/` and a `.` beside a letter are written as entities:
 * the same characters on the page, no link in either (cli/ci-files.test.ts parses with both). A `.`
 * between digits stays, so figures read as they are in the file.
 */
function notLinkable(escaped: string): string {
  return escaped
    .replace(/:/g, '&#58;')
    .replace(/\/(?=\/)/g, '&#47;')
    .replace(/(?<=\p{L})\.|\.(?=\p{L})/gu, '&#46;');
}
