import { literalText } from '../../contract/variables.js';
import { encodeComponent } from './url-encode.js';
import { dataPlaceholder, type DataColumns } from './data-columns.js';

// An operation's security (its own, else the description's) as what its request sends: bearer,
// OAuth 2 and OpenID Connect as an Authorization: Bearer header, basic as Authorization: Basic, an
// API key in its header, query or cookie. The description holds no credential, so each goes to the
// data file as an empty column named auth.<scheme> for the person to fill in (said in a note); one
// it cannot send (digest, mutual TLS) is named in a note and left out.

type Obj = Record<string, unknown>;
const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What an operation's credentials add to its request. */
export interface AuthParts {
  headers: Record<string, string>;
  /** query text, `name=value` joined by & (templates) */
  query: string[];
  cookies: string[];
}

/** What the operations' security needed, over the whole description. */
export interface AuthFindings {
  /** column -> what to put there (the description holds no credential) */
  columns: Map<string, string>;
  /** scheme -> why it was left out */
  unsupported: Map<string, string>;
}

export const newAuthFindings = (): AuthFindings => ({ columns: new Map(), unsupported: new Map() });

/** The first requirement of the operation's security (else the description's); an empty one needs none. */
function requirement(operation: Obj, doc: Obj): string[] {
  const security = Array.isArray(operation.security) ? operation.security : Array.isArray(doc.security) ? doc.security : [];
  const first: unknown = security[0];
  return isRecord(first) ? Object.keys(first) : [];
}

export function authParts(operation: Obj, doc: Obj, columns: DataColumns, found: AuthFindings): AuthParts {
  const parts: AuthParts = { headers: {}, query: [], cookies: [] };
  const schemes = isRecord(doc.components) && isRecord(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  for (const name of requirement(operation, doc)) {
    const scheme = schemes[name];
    if (!isRecord(scheme)) {
      found.unsupported.set(name, 'not among components.securitySchemes');
      continue;
    }
    const type = String(scheme.type ?? '');
    const httpScheme = String(scheme.scheme ?? '').toLowerCase();
    const column = (what: string): string | null => {
      const taken = columns.secret(`auth.${name}`, '');
      if (taken === null) return null;
      found.columns.set(taken, what);
      return dataPlaceholder(taken);
    };
    if ((type === 'http' && httpScheme === 'bearer') || type === 'oauth2' || type === 'openIdConnect') {
      const what = type === 'http' ? 'a bearer token' : type === 'oauth2' ? 'an OAuth 2 access token' : 'an OpenID Connect access token';
      const value = column(`${what}, sent as Authorization: Bearer`);
      if (value !== null) parts.headers.Authorization = `Bearer ${value}`;
    } else if (type === 'http' && httpScheme === 'basic') {
      const value = column('the Base64 of user:password, sent as Authorization: Basic');
      if (value !== null) parts.headers.Authorization = `Basic ${value}`;
    } else if (type === 'apiKey' && typeof scheme.name === 'string' && scheme.name !== '') {
      const where = String(scheme.in);
      const value = column(`an API key, sent in the ${where} ${scheme.name}`);
      if (value === null) continue;
      if (where === 'header') parts.headers[scheme.name] = value;
      else if (where === 'query') parts.query.push(`${literalText(encodeComponent(scheme.name))}=${value}`);
      else if (where === 'cookie') parts.cookies.push(`${literalText(scheme.name)}=${value}`);
      else found.unsupported.set(name, `an API key in ${where}`);
    } else found.unsupported.set(name, type === 'http' ? `HTTP ${httpScheme || 'auth'}` : type || 'no type');
  }
  return parts;
}

/** The note of the schemes left out. */
export function unsupportedNote(found: AuthFindings): string[] {
  if (found.unsupported.size === 0) return [];
  return [`left out security schemes it cannot send: ${[...found.unsupported].map(([name, why]) => `${name} (${why})`).join(', ')}`];
}
