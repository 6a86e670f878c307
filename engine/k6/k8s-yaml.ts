// Kubernetes manifests as YAML that every reader takes the same way. kubectl reads YAML with go-yaml
// (YAML 1.1 rules); `yaml` and most tools read 1.2. They disagree on plain scalars (`on`, `yes`, `0777`,
// `1:20` are a bool or a number in 1.1) and on line breaks (U+0085, U+2028, U+2029 break a line in
// 1.1, inside quotes too). So no string is left to a parser's reading:
//   - every string value is double-quoted, everything outside printable ASCII escaped (\n, \uXXXX,
//     \UXXXXXXXX); a lone surrogate, which no YAML or UTF-8 can hold, becomes U+FFFD (as Go's JSON does);
//   - a key is plain only when it is a word no YAML version reads as anything but that string;
//   - a multi-line text of printable characters only (the script) is a literal block with explicit
//     indentation and chomping (`|2-`), so it stays readable and no leading space or trailing
//     newline is guessed.

export type YamlValue = string | number | boolean | null | readonly YamlValue[] | { readonly [key: string]: YamlValue };

/** A key left plain: a word, and not one YAML 1.1 reads as a bool or null. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const AMBIGUOUS_WORD = /^(?:y|n|yes|no|on|off|true|false|null)$/i;

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/** One string as a YAML double-quoted scalar of printable ASCII only. */
export function yamlQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0x20 && cp <= 0x7e) out += ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\uFFFD';
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/**
 * Characters a literal block may show as they are: printable ASCII, and printable non-ASCII that no
 * YAML version reads as a break (U+2028/9), a BOM or a C1 control (U+0085 is one). No tab (1.1
 * and 1.2 disagree where it may stand), no CR (a reader turns CRLF into LF).
 */
const BLOCK_SAFE = /^(?:[\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]|[\ud800-\udbff][\udc00-\udfff])*$/;

function literalBlock(s: string, indent: number): string | null {
  // a text of newlines only has no line to hold the block's content: quoted instead
  if (!s.includes('\n') || /^\n*$/.test(s) || !BLOCK_SAFE.test(s)) return null;
  const trailing = /\n*$/.exec(s)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing === 0 ? s : s.slice(0, -1);
  const pad = ' '.repeat(indent + 2);
  return `|2${chomp}\n${body.split('\n').map((line) => (line === '' ? '' : pad + line)).join('\n')}`;
}

function scalar(v: string | number | boolean | null): string {
  if (typeof v === 'string') return yamlQuoted(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a YAML number for a manifest: ${v}`);
    return String(v);
  }
  return String(v);
}

const keyText = (k: string) => (PLAIN_KEY.test(k) && !AMBIGUOUS_WORD.test(k) ? k : yamlQuoted(k));

const isEmpty = (v: YamlValue) => (Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0);

/** The lines of `value` at `indent` spaces (a map's keys, or a list's dashes). */
function block(value: YamlValue, indent: number): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    return (value as readonly YamlValue[])
      .map((item) => {
        if (item !== null && typeof item === 'object' && !isEmpty(item)) {
          // the item's own lines at indent + 2, its first line's padding becoming the dash
          return `${pad}- ${block(item, indent + 2).slice(indent + 2)}`;
        }
        return `${pad}- ${inline(item, indent)}`;
      })
      .join('\n');
  }
  return Object.entries(value as Record<string, YamlValue>)
    .map(([k, v]) => {
      if (v !== null && typeof v === 'object' && !isEmpty(v)) return `${pad}${keyText(k)}:\n${block(v, Array.isArray(v) ? indent : indent + 2)}`;
      return `${pad}${keyText(k)}: ${inline(v, indent)}`;
    })
    .join('\n');
}

/** A value that fits after `key: ` or `- `: a scalar, an empty collection, or a literal block. */
function inline(v: YamlValue, indent: number): string {
  if (Array.isArray(v)) return '[]';
  if (v !== null && typeof v === 'object') return '{}';
  if (typeof v === 'string') return literalBlock(v, indent) ?? scalar(v);
  return scalar(v as number | boolean | null);
}

/** A YAML stream of manifests (`kubectl apply -f`): each a document of its own. */
export function yamlStream(docs: readonly { readonly [key: string]: YamlValue }[]): string {
  return docs.map((d) => `---\n${block(d, 0)}\n`).join('');
}
