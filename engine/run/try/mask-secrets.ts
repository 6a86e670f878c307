import { isShownMasked } from '../../../contract/secret-names.js';

// What a try shows never carries a secret (issue 39): it is printed on terminals, pasted into issues
// and kept in screenshots. A value is a secret when its name says so (a header, a JSON or form
// field, a query parameter, a data column, a variable: Authorization, Cookie, *token*, *key*,
// *secret*, *passw*, ...: contract/secret-names.ts); such a value is masked where it stands, and
// once seen, wherever else it appears (a token a login returned is masked in the next step's
// header, the echo of a body, an extracted value under a plain name). A masked value keeps only its
// length.

/** A value shorter than this is masked where it stands but not hunted elsewhere (it would hit digits and words everywhere). */
const MIN_HUNTED = 6;

const masked = (value: string): string => `•••• (${value.length} chars)`;

// "key": "value" (a string value, its end maybe cut off) or "key": number, in JSON text pretty or not
const JSON_FIELD = /"((?:[^"\\\n]|\\.){1,200})"(\s*:\s*)(?:"((?:[^"\\]|\\.)*)("|$)|(-?\d[\d.eE+-]{0,40}))/g;
// name=value pairs of a form body or a query string
const FORM_FIELD = /(^|[&?])([^=&?#\s]{1,200})=([^&#\s]*)/g;

export class SecretMask {
  /** secrets seen so far, longest first when applied (a secret inside a longer one is masked with it) */
  private readonly known = new Set<string>();

  /** `value` is a secret: masked wherever it appears from now on */
  add(value: string): void {
    if (value.length >= MIN_HUNTED) this.known.add(value);
    // a scheme and its credentials ("Bearer <token>"), cookies ("a=1; sid=<id>"): each part hunted too
    for (const part of value.split(/[\s;,]+/)) {
      const v = part.includes('=') ? part.slice(part.indexOf('=') + 1) : part;
      if (v.length >= MIN_HUNTED && v !== value) this.known.add(v);
    }
  }

  /** `text` with every known secret replaced by its mask */
  hide(text: string): string {
    if (this.known.size === 0 || text === '') return text;
    let out = text;
    for (const secret of [...this.known].sort((a, b) => b.length - a.length)) if (out.includes(secret)) out = out.split(secret).join(masked(secret));
    return out;
  }

  /** A named value (a header, a placeholder, a variable): masked whole when its name says secret. */
  value(name: string, value: string): string {
    if (isShownMasked(name) && value !== '') {
      this.add(value);
      return masked(value);
    }
    return this.hide(value);
  }

  /** JSON text with each secret-named field's value masked. */
  json(text: string): string {
    const out = text.replace(JSON_FIELD, (all, key: string, colon: string, str: string | undefined, close: string | undefined, num: string | undefined) => {
      if (!isShownMasked(key)) return all;
      const value = str ?? num ?? '';
      this.add(str !== undefined ? unescapeJson(str) : value);
      return str !== undefined ? `"${key}"${colon}"${masked(value)}${close ?? ''}` : `"${key}"${colon}"${masked(value)}"`;
    });
    return this.hide(out);
  }

  /** A form body or a URL: each secret-named field's value masked. */
  form(text: string): string {
    const out = text.replace(FORM_FIELD, (all, lead: string, key: string, value: string) => {
      if (!isShownMasked(safeDecode(key)) || value === '') return all;
      this.add(value);
      this.add(safeDecode(value));
      return `${lead}${key}=${masked(value)}`;
    });
    return this.hide(out);
  }
}

function unescapeJson(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
