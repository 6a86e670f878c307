// Which of a captured request's headers a scenario keeps. Framing and pseudo headers are the
// client's to write (the driver sets Host and Content-Length itself); secrets stay out of a scenario
// file unless asked for, since it gets shared and committed; a header the HTTP grammar forbids
// would make every request fail (or split it in two).

export type HeaderVerdict = 'keep' | 'framing' | 'secret' | 'invalid';

const FRAMING = new Set(['host', 'content-length', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
const SECRETS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization', 'x-api-key']);
/** Named like a credential: X-Auth-Token, X-Session-Id, X-CSRF-Token, Api-Key, X-Client-Secret... */
const SECRET_LIKE = /token|secret|session|passw|auth|api-?key|csrf|xsrf|credential|signature/i;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Field values: visible ASCII, space, tab and obs-text; never CR, LF or NUL. */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function headerVerdict(name: string, value: string): HeaderVerdict {
  const lower = name.toLowerCase();
  if (name.startsWith(':') || FRAMING.has(lower)) return 'framing';
  if (!TOKEN.test(name) || !VALUE.test(value)) return 'invalid';
  if (SECRETS.has(lower) || SECRET_LIKE.test(lower)) return 'secret';
  return 'keep';
}

/** Counts of what was left out, for the notes. */
export interface HeaderDrops {
  secret: Set<string>;
  invalid: number;
}

export const noHeaderDrops = (): HeaderDrops => ({ secret: new Set(), invalid: 0 });

/**
 * The headers a template keeps, one per name (case-insensitive, the first spelling): repeated
 * headers joined as HTTP joins them (Cookie with '; ', others with ', ').
 */
export function keptHeaders(headers: readonly { name: string; value: string }[], keepSecrets: boolean, drops: HeaderDrops): Record<string, string> {
  const out = new Map<string, { name: string; value: string }>();
  for (const { name, value } of headers) {
    const verdict = headerVerdict(name, value);
    if (verdict === 'framing') continue;
    if (verdict === 'invalid') {
      drops.invalid++;
      continue;
    }
    if (verdict === 'secret' && !keepSecrets) {
      drops.secret.add(name.toLowerCase());
      continue;
    }
    const key = name.toLowerCase();
    const before = out.get(key);
    if (before === undefined) out.set(key, { name, value });
    else before.value += `${key === 'cookie' ? '; ' : ', '}${value}`;
  }
  return Object.fromEntries([...out.values()].map((h) => [h.name, h.value]));
}

/** The notes of what was left out of the headers. */
export function headerNotes(drops: HeaderDrops, keepSecrets: boolean): string[] {
  const notes: string[] = [];
  if (drops.secret.size > 0 && !keepSecrets) {
    notes.push(`left out secret headers (${[...drops.secret].sort().join(', ')}); --keep-secrets keeps them`);
  }
  if (drops.invalid > 0) notes.push(`left out ${drops.invalid} header(s) whose name or value HTTP does not allow (a line break, a control character)`);
  return notes;
}
