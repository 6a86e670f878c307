// Markdown's one escaper: a user's string (a name, a label, a rule) in a Markdown table cell or line
// is text, never markup. The CI summary (--markdown) and the report tables in Markdown both ask it.

/**
 * Text as a GitHub-flavoured Markdown table cell shows it literally: HTML's specials as entities,
 * Markdown's punctuation backslash-escaped (`|` would end the cell, `*`/`_`/`` ` ``/`[` start markup),
 * line breaks as spaces, and `@` kept from mentioning anyone (a zero-width space after it).
 */
export function mdText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+!|~]/g, (c) => `\\${c}`)
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/@/g, '@\u200b');
}
