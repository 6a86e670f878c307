import { isSecretHeader } from '../../contract/secret-names.js';

// Which of a captured request's headers a scenario keeps. Framing and pseudo headers are the
// client's to write (the driver sets Host and Content-Length itself); browser noise describes the
// browser, not the request (and a cache validator would turn a replay into 304s); secrets never stay
// inline in a file that gets shared: an import moves them to its credentials file (credentials.ts),
// the editor's "add a pasted curl" leaves them out unless asked; a header the HTTP grammar forbids
// would make every request fail (or split it in two).

export type HeaderVerdict = 'keep' | 'framing' | 'noise' | 'secret' | 'invalid';

const FRAMING = new Set(['host', 'content-length', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
/** What a browser adds about itself or its cache, not about the request. */
const NOISE = new Set(['accept-language', 'dnt', 'sec-gpc', 'upgrade-insecure-requests', 'priority', 'purpose', 'x-client-data', 'if-none-match', 'if-modified-since', 'cache-control']);
const NOISE_PREFIX = /^sec-(fetch|ch)-|^sec-purpose$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Field values: visible ASCII, space, tab and obs-text; never CR, LF or NUL. */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function headerVerdict(name: string, value: string): HeaderVerdict {
  const lower = name.toLowerCase();
  if (name.startsWith(':') || FRAMING.has(lower)) return 'framing';
  if (!TOKEN.test(name) || !VALUE.test(value)) return 'invalid';
  if (NOISE.has(lower) || NOISE_PREFIX.test(lower) || (lower === 'user-agent' && /headless/i.test(value))) return 'noise';
  if (isSecretHeader(lower)) return 'secret';
  return 'keep';
}

/** Counts of what was left out, for the notes. */
export interface HeaderDrops {
  secret: Set<string>;
  noise: Set<string>;
  invalid: number;
}

export const noHeaderDrops = (): HeaderDrops => ({ secret: new Set(), noise: new Set(), invalid: 0 });

/**
 * The headers a template keeps, one per name (case-insensitive, the first spelling): repeated
 * headers joined as HTTP joins them (Cookie with '; ', others with ', '). Secrets are kept only when
 * `keepSecrets` (an import keeps them to move them to its credentials file).
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
    if (verdict === 'noise') {
      drops.noise.add(name.toLowerCase());
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
  if (drops.noise.size > 0) notes.push(`left out browser headers (${[...drops.noise].sort().join(', ')}): they describe the browser or its cache, not the request`);
  if (drops.secret.size > 0 && !keepSecrets) {
    notes.push(`left out secret headers (${[...drops.secret].sort().join(', ')}); --keep-secrets keeps them`);
  }
  if (drops.invalid > 0) notes.push(`left out ${drops.invalid} header(s) whose name or value HTTP does not allow (a line break, a control character)`);
  return notes;
}
