import { isCredentialField, isLoginField, isPasswordField } from '../../contract/secret-names.js';
import { dataPlaceholder } from './data-columns.js';
import type { PostmanVariables } from './postman-template.js';

// A credential a collection writes literally in a request's body or query (a login's password, a
// client secret in a form, an api_key parameter) moves to the data file as its headers' credentials
// do: the request keeps {{data.body.<field>}} (or query.<name>) where the value stood, the data file
// the value, and the note names the column (issue 39). Before, a collection's raw JSON body went into
// the scenario as it was, password and all.
// The names are contract/secret-names.ts's; with a password, its login name moves with it (a row is
// one user). A value that is a {{variable}} already went to the data file (postman-template.ts).

/** A JSON string member in raw text: its key and its value, both as written (escaped). */
const JSON_MEMBER = /"((?:[^"\\\n]|\\.){1,200})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
const VARIABLE = /\{\{[^{}]+\}\}/;

const unescaped = (text: string): string | null => {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return null;
  }
};

/** Where a credential moved: its column and what it holds, for the note. */
export type MovedCredential = (column: string, what: string) => void;

/** Whether `key` moves, given whether the body has a password beside it. */
const moves = (key: string, password: boolean): boolean => isCredentialField(key) || (password && isLoginField(key));

/**
 * A raw JSON body as a template, each literal credential string a data placeholder; a value the
 * driver writes inside a JSON string is escaped by it, so the column holds the value unescaped.
 */
export function rawJsonTemplate(raw: string, vars: PostmanVariables, moved: MovedCredential): string {
  const members = [...raw.matchAll(JSON_MEMBER)].map((m) => ({ m, key: unescaped(m[1]!), value: unescaped(m[3]!) }));
  const password = members.some(({ key }) => key !== null && isPasswordField(key));
  let out = '';
  let at = 0;
  for (const { m, key, value } of members) {
    if (key === null || value === null || value === '' || VARIABLE.test(value) || !moves(key, password)) continue;
    const column = vars.columns.secret(`body.${key}`, value);
    const valueAt = m.index + 1 + m[1]!.length + 1 + m[2]!.length + 1;
    out += vars.template(raw.slice(at, valueAt));
    // past the data file's columns the value is left out (an empty string), never written in
    if (column !== null) {
      moved(column, `the ${key} field of a body`);
      out += dataPlaceholder(column);
    }
    at = valueAt + m[3]!.length;
  }
  return out + vars.template(raw.slice(at));
}

/** Where name=value pairs stand: a form body or a URL's query (its column prefix and its wording). */
export type PairsIn = { prefix: 'body'; what: 'a form body' } | { prefix: 'query'; what: 'the query' };

/**
 * name=value pairs (a form body, a query; a null value: a name alone) joined with &, fixed text
 * through `encode`, a variable's value through `encodeVariable`; each literal credential value a data
 * placeholder, its column holding it as it was sent (through `encode`).
 */
export function pairsTemplate(
  pairs: readonly { key: string; value: string | null }[],
  where: PairsIn,
  vars: PostmanVariables,
  moved: MovedCredential,
  encode: (s: string) => string,
  encodeVariable: (s: string) => string,
): string {
  const password = pairs.some((p) => isPasswordField(p.key));
  return pairs
    .map(({ key, value }) => {
      const name = vars.template(key, encode, encodeVariable);
      if (value === null) return name;
      if (value === '' || VARIABLE.test(value) || !moves(key, password)) return `${name}=${vars.template(value, encode, encodeVariable)}`;
      const column = vars.columns.secret(`${where.prefix}.${key}`, encode(value));
      if (column === null) return `${name}=`;
      moved(column, `the ${key} field of ${where.what}`);
      return `${name}=${dataPlaceholder(column)}`;
    })
    .join('&');
}
